import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestShell, TestShell } from '../testing';
import { createToaster } from './toaster';
import { ToastArea } from './Toaster';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const renderArea = () => {
  const toaster = createToaster();
  render(
    <TestShell shell={createTestShell()}>
      <ToastArea toaster={toaster} />
    </TestShell>,
  );
  return toaster;
};

describe('the toast area', () => {
  it('announces an error as an alert with the x-circle icon, and closes on ×', () => {
    const toaster = renderArea();
    act(() => toaster.show('Saving failed'));
    const toast = screen.getByRole('alert');
    expect(toast.textContent).toContain('Saving failed');
    expect(toast.getAttribute('data-icon')).toBe('x-circle');
    fireEvent.click(screen.getByRole('button', { name: 'Close the message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    ['success', 'check-circle'],
    ['warning', 'exclamation-triangle'],
    ['info', 'information-circle'],
  ] as const)('shows a %s toast as a status with the %s icon', (type, icon) => {
    const toaster = renderArea();
    act(() => toaster.show('Done', { type }));
    expect(screen.getByRole('status').getAttribute('data-icon')).toBe(icon);
  });

  it('runs the action and closes', () => {
    const toaster = renderArea();
    const run = vi.fn();
    act(() => toaster.show('No notes left', { duration: 0, action: { label: 'Upgrade', run } }));
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the replacement 100 ms after hiding the old one', () => {
    const toaster = renderArea();
    act(() => toaster.show('first', { type: 'info' }));
    act(() => toaster.show('second', { type: 'info' }));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('status').textContent).toContain('second');
  });
});
