import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestShell, TestShell } from '../testing';
import { ConfirmHost } from './ConfirmHost';
import { createConfirmer } from './confirmer';

afterEach(cleanup);

const renderHost = () => {
  const confirmer = createConfirmer();
  render(
    <TestShell shell={createTestShell()}>
      <ConfirmHost confirmer={confirmer} />
    </TestShell>,
  );
  return confirmer;
};

describe('the confirm popup', () => {
  it('answers true on the confirm button and closes', async () => {
    const confirmer = renderHost();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmer.confirm({
        title: 'Delete this note?',
        confirmLabel: 'Delete',
        danger: true,
      });
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this note?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(answer).resolves.toBe(true);
    expect(dialog.isConnected).toBe(false);
  });

  it('answers false on Cancel and on Escape', async () => {
    const confirmer = renderHost();
    let first: Promise<boolean> = Promise.resolve(true);
    act(() => {
      first = confirmer.confirm({ title: 'Leave?' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(first).resolves.toBe(false);

    let second: Promise<boolean> = Promise.resolve(true);
    act(() => {
      second = confirmer.confirm({ title: 'Leave?' });
    });
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await expect(second).resolves.toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a new question cancels the one still open', async () => {
    const confirmer = renderHost();
    let first: Promise<boolean> = Promise.resolve(true);
    let second: Promise<boolean> = Promise.resolve(false);
    act(() => {
      first = confirmer.confirm({ title: 'First?' });
    });
    act(() => {
      second = confirmer.confirm({ title: 'Second?' });
    });
    await expect(first).resolves.toBe(false);
    expect(screen.getByRole('alertdialog', { name: 'Second?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(second).resolves.toBe(true);
  });
});
