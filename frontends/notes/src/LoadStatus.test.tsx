import { AppError } from '@noted/api';
import { ShellContext } from '@noted/ui';
import { createTestShell } from '@noted/ui/testing';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadFailed } from './LoadStatus';
import { createNotesTestI18n } from './testing';

afterEach(cleanup);

const renderFailed = (error: unknown) => {
  const i18n = createNotesTestI18n();
  const shell = createTestShell(i18n);
  const onRetry = vi.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <ShellContext.Provider value={shell}>
        <LoadFailed message={(reason) => `Not loaded: ${reason}`} error={error} onRetry={onRetry} />
      </ShellContext.Provider>
    </I18nextProvider>,
  );
  return { offline: shell.offline, onRetry };
};

const unreachable = new AppError('UNAVAILABLE', 'The server could not be reached');

describe('LoadFailed', () => {
  it('offline, says calmly that it waits for the connection, and tries again once it is back', () => {
    const { offline, onRetry } = renderFailed(unreachable);
    act(() => offline.set({ online: false }));
    expect(screen.getByRole('status').textContent).toContain('You are offline');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onRetry).not.toHaveBeenCalled();

    act(() => offline.set({ online: true }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    // Once: another render while online does not ask again.
    act(() => offline.set({ pending: [] }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('online, shows the failure with Retry and does not ask again by itself', () => {
    const { onRetry } = renderFailed(new AppError('INTERNAL', 'Something broke'));
    expect(screen.getByRole('alert').textContent).toContain('Not loaded: Something broke');
    expect(onRetry).not.toHaveBeenCalled();
  });
});
