import { createApiClient } from '@noted/api';
import type { User } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import type { Auth, AuthState } from './auth/auth';
import type { NotesAppProps } from './remotes/contracts';
import { RemoteLoadError } from './remotes/fallbackPlugin';
import type { ComponentModule } from './remotes/loader';

const fakeAuth = (initial: AuthState) => {
  let state = initial;
  const listeners = new Set<() => void>();
  const auth: Auth = {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: vi.fn(async () => undefined),
    login: vi.fn(async () => undefined),
    logout: vi.fn(async () => undefined),
    getToken: vi.fn(async () => 'token'),
    refresh: vi.fn(async () => true),
  };
  const set = (next: AuthState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  return { auth, set };
};

const api = createApiClient({ baseUrl: '', getToken: async () => undefined });
const user: User = {
  userId: '7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001',
  authId: 'user-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  entitlements: {},
  createdAt: '2025-01-01T00:00:00.000Z',
};
const signedIn: AuthState = {
  status: 'signedIn',
  user: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
};

const NotesStub = ({ api: given }: NotesAppProps) => (
  <p>{given === api ? 'Notes with the shell client' : 'Notes with another client'}</p>
);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('App', () => {
  it('welcomes a signed-out visitor and starts sign-in from the button', () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({
      default: NotesStub,
    }));
    render(<App auth={auth} api={api} checkAccount={vi.fn()} loadNotesApp={loadNotesApp} />);

    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe(
      'Your notes, in one place',
    );
    fireEvent.click(within(main).getByRole('button', { name: 'Sign in' }));

    expect(auth.login).toHaveBeenCalledTimes(1);
    expect(loadNotesApp).not.toHaveBeenCalled();
  });

  it('shows the user, checks the account once and renders the notes module with the client', async () => {
    const { auth, set } = fakeAuth({ status: 'loading' });
    const checkAccount = vi.fn(async () => user);
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({
      default: NotesStub,
    }));
    render(<App auth={auth} api={api} checkAccount={checkAccount} loadNotesApp={loadNotesApp} />);
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');

    act(() => set(signedIn));

    expect(await screen.findByText('Notes with the shell client')).toBeTruthy();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(header).getByText('ada@example.com')).toBeTruthy();
    expect(checkAccount).toHaveBeenCalledTimes(1);
    expect(checkAccount).toHaveBeenCalledWith('user-1');
    expect(loadNotesApp).toHaveBeenCalledTimes(1);

    fireEvent.click(within(header).getByRole('button', { name: 'Sign out' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it('keeps the header working when the notes module cannot be loaded', async () => {
    const { auth } = fakeAuth(signedIn);
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => {
      throw new RemoteLoadError('notes/NotesApp', new Error('manifest 503'));
    });
    render(
      <App
        auth={auth}
        api={api}
        checkAccount={vi.fn(async () => user)}
        loadNotesApp={loadNotesApp}
      />,
    );

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The notes module could not be loaded.',
    );
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });
});
