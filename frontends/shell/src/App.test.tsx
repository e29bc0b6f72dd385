import { createApiClient } from '@noted/api';
import type { User } from '@noted/api';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppProps } from './App';
import type { Auth, AuthState } from './auth/auth';
import type { NotesAppProps, SharedNoteProps } from './remotes/contracts';
import { RemoteLoadError } from './remotes/fallbackPlugin';
import type { ComponentModule } from './remotes/loader';
import { ShellRoutes } from './ShellRoutes';

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
  <p>
    {given === api ? 'Notes with the shell client' : 'Notes with another client'} at{' '}
    {useLocation().pathname}
  </p>
);

const SharedStub = ({ publicId }: SharedNoteProps) => <p>Shared note {publicId}</p>;

/** The shell's routes at `path`, as bootstrap renders them inside its BrowserRouter. */
const renderAt = (path: string, props: AppProps) => {
  const loadSharedNote = vi.fn(async (): Promise<ComponentModule<SharedNoteProps>> => ({
    default: SharedStub,
  }));
  render(
    <MemoryRouter initialEntries={[path]}>
      <ShellRoutes {...props} loadSharedNote={loadSharedNote} />
    </MemoryRouter>,
  );
  return { loadSharedNote };
};

const notesModule = () =>
  vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({ default: NotesStub }));

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
    const loadNotesApp = notesModule();
    renderAt('/', { auth, api, checkAccount: vi.fn(), loadNotesApp });

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
    const loadNotesApp = notesModule();
    renderAt('/', { auth, api, checkAccount, loadNotesApp });
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');
    expect(auth.start).toHaveBeenCalledTimes(1);

    act(() => set(signedIn));

    expect(await screen.findByText('Notes with the shell client at /')).toBeTruthy();
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
    renderAt('/', { auth, api, checkAccount: vi.fn(async () => user), loadNotesApp });

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The notes module could not be loaded.',
    );
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it.each(['/notes/7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001', '/todos', '/review', '/mindlink'])(
    'hands %s to the notes module, which routes it',
    async (path) => {
      const { auth } = fakeAuth(signedIn);
      const loadNotesApp = notesModule();
      renderAt(path, { auth, api, checkAccount: vi.fn(async () => user), loadNotesApp });

      expect(await screen.findByText(`Notes with the shell client at ${path}`)).toBeTruthy();
    },
  );

  it('shows "Page not found" with a way home for any other path, and loads no module', async () => {
    const { auth } = fakeAuth(signedIn);
    const loadNotesApp = notesModule();
    renderAt('/nowhere/at-all', { auth, api, checkAccount: vi.fn(async () => user), loadNotesApp });

    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe(
      'Page not found: /nowhere/at-all',
    );
    expect(loadNotesApp).not.toHaveBeenCalled();
    expect(
      within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' }),
    ).toBeTruthy();

    fireEvent.click(within(main).getByRole('link', { name: 'Go to your notes' }));
    expect(await screen.findByText('Notes with the shell client at /')).toBeTruthy();
  });

  it('shows a shared note without an account and without checking the session', async () => {
    const { auth } = fakeAuth({ status: 'loading' });
    const loadNotesApp = notesModule();
    const { loadSharedNote } = renderAt('/notes/s/AAAAAAAAAAAAAAAAAAAAAA', {
      auth,
      api,
      checkAccount: vi.fn(),
      loadNotesApp,
    });

    expect(await screen.findByText('Shared note AAAAAAAAAAAAAAAAAAAAAA')).toBeTruthy();
    expect(loadSharedNote).toHaveBeenCalledTimes(1);
    expect(auth.start).not.toHaveBeenCalled();
    expect(loadNotesApp).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('follows the address once the session check has taken the provider answer out of it', async () => {
    window.history.replaceState(null, '', '/todos?code=c0de&state=st4te');
    const { auth, set } = fakeAuth({ status: 'loading' });
    const Where = () => <p>Router at {useLocation().search || 'no query'}</p>;
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({
      default: Where,
    }));
    renderAt('/todos?code=c0de&state=st4te', {
      auth,
      api,
      checkAccount: vi.fn(async () => user),
      loadNotesApp,
    });

    window.history.replaceState(null, '', '/todos');
    act(() => set(signedIn));

    expect(await screen.findByText('Router at no query')).toBeTruthy();
    window.history.replaceState(null, '', '/');
  });
});
