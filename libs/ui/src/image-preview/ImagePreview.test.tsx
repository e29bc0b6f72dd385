import { act, cleanup, fireEvent, render as renderTree, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestShell, TestShell } from '../testing';
import { ImagePreview } from './ImagePreview';

const render = (tree: ReactElement) =>
  renderTree(<TestShell shell={createTestShell()}>{tree}</TestShell>);

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.runOnlyPendingTimers();
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.history.replaceState(null, '');
});

/** An opener button and the preview it shows, as a page would use it. */
function Harness({ onClosed }: { onClosed?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <ImagePreview
          src="blob:http://localhost/1"
          onClose={() => {
            setOpen(false);
            onClosed?.();
          }}
        />
      ) : null}
    </>
  );
}

const open = () => {
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog', { name: 'Image preview' }) };
};

describe('ImagePreview', () => {
  it('is a modal dialog showing the image titled as a note image, focus inside', () => {
    render(<Harness />);
    const { dialog } = open();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const image = screen.getByRole('img', { name: 'Note image' });
    expect(image.getAttribute('title')).toBe('Note image');
    expect(image.getAttribute('src')).toBe('blob:http://localhost/1');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('adds a history entry on the same URL when it opens', () => {
    window.history.replaceState({ usr: null, key: 'k1', idx: 0 }, '');
    const href = window.location.href;
    render(<Harness />);
    open();
    expect(window.history.state).toEqual({
      usr: null,
      key: 'k1',
      idx: 0,
      notedImagePreview: true,
    });
    expect(window.location.href).toBe(href);
  });

  it('closes on a click on the backdrop, drops its history entry and gives focus back', () => {
    render(<Harness />);
    const { opener, dialog } = open();
    fireEvent.click(dialog);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    act(() => vi.runOnlyPendingTimers());
    expect(window.history.back).toHaveBeenCalledTimes(1);
  });

  it('stays open on a click on the image', () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    open();
    fireEvent.click(screen.getByRole('img', { name: 'Note image' }));
    expect(screen.getByRole('dialog', { name: 'Image preview' })).toBeTruthy();
    expect(onClosed).not.toHaveBeenCalled();
  });

  it('closes on Escape', () => {
    render(<Harness />);
    open();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.runOnlyPendingTimers());
    expect(window.history.back).toHaveBeenCalledTimes(1);
  });

  it('closes on the back action without going back a second time', () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    open();
    act(() => {
      // What the browser does on back: the entry before the preview's becomes current.
      window.history.replaceState(null, '');
      window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onClosed).toHaveBeenCalledTimes(1);
    act(() => vi.runOnlyPendingTimers());
    expect(window.history.back).not.toHaveBeenCalled();
  });

  it('keeps Tab inside the dialog', () => {
    render(<Harness />);
    const { dialog } = open();
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab' });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
});
