import type { SubscriptionStatus, User, UserUsage } from '@noted/api';
import {
  createI18n,
  createLiveHub,
  registerMessages,
  takeCurrentNote,
  type ShellServices,
} from '@noted/ui';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, useLocation } from '@noted/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccount } from './account';
import { createShellApi } from './api';
import type { Auth, AuthState } from './auth/auth';
import type { ShellApp } from './context';
import type { LiveConnection } from './live/connection';
import { shellMessages } from './messages';
import { createPwa, installHiddenKey, type Pwa } from './pwa/pwa';
import type {
  BillingDialogProps,
  NotesAppProps,
  PlanPanelProps,
  SharedNoteProps,
  SubscriptionPageProps,
} from './remotes/contracts';
import { RemoteLoadError } from './remotes/fallbackPlugin';
import type { ComponentModule } from './remotes/loader';
import { createOffline } from './offline/offline';
import { createShellServices, createShellState } from './services';
import { Shell } from './Shell';

const fakeAuth = (initial: AuthState, { wasSignedIn = true } = {}) => {
  let state = initial;
  const listeners = new Set<() => void>();
  const auth: Auth = {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: vi.fn(async () => undefined),
    wasSignedIn: () => wasSignedIn,
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

const user: User = {
  userId: '7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001',
  authId: 'user-1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  entitlements: { notes_per_month: 50 },
  createdAt: '2025-01-01T00:00:00.000Z',
};
const signedIn: AuthState = {
  status: 'signedIn',
  user: { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
};

let i18n: I18n;

const NotesStub = ({ api, shell }: NotesAppProps) => (
  <p>
    Notes {api ? 'with a client' : 'without a client'} and {shell.i18n === i18n ? 'the' : 'another'}{' '}
    shell at {useLocation().pathname}
  </p>
);

const SharedStub = ({ publicId }: SharedNoteProps) => <p>Shared note {publicId}</p>;

const freePlan: SubscriptionStatus = {
  planName: 'free',
  status: 'inactive',
  expiresAt: null,
  isActive: false,
  entitlements: { notes_per_month: 50 },
  interval: null,
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  paymentFailed: false,
  paymentsEnabled: true,
};
const usage: UserUsage = {
  period: '2025-11',
  resetsAt: '2025-12-01T00:00:00.000Z',
  notes: { used: 50, limit: 50 },
  recordingTimeLimit: 60,
};

/** The calls of spec section 4 after sign-in: the user exists, on the free plan. */
const accountApi = () => ({
  users: {
    check: vi.fn(async () => ({ exists: true, user })),
    create: vi.fn(async () => user),
    usage: vi.fn(async () => usage),
  },
  billing: {
    verify: vi.fn(async () => freePlan),
    status: vi.fn(async () => freePlan),
  },
});

// The billing remote's modules, as stand-ins that show what the shell handed them.
const PlanPanelStub = ({ shell }: PlanPanelProps) => (
  <section aria-label="Plan panel">
    <p>Plan: {shell.account.get().subscription?.planName}</p>
    <button type="button" onClick={() => shell.account.openBilling('upgrade')}>
      Upgrade
    </button>
  </section>
);
const DataPanelStub = () => (
  <section aria-label="Data panel">
    <p>Your notes, out and in</p>
  </section>
);
const BillingDialogStub = ({ view, onClose }: BillingDialogProps) => (
  <div role="dialog" aria-label={`Billing: ${view}`}>
    <button type="button" onClick={onClose}>
      Close billing
    </button>
  </div>
);
const SubscriptionPageStub = ({ page }: SubscriptionPageProps) => (
  <h1>Subscription page: {page}</h1>
);

/** The marketing remote's site, as a stand-in that says which path it was given. */
function MarketingStub() {
  const { pathname } = useLocation();
  return (
    <main>
      <h1>Site page: {pathname}</h1>
    </main>
  );
}

const FeedbackStub = () => <h1>Feedback form</h1>;

const notesModule = () =>
  vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({ default: NotesStub }));

interface Options {
  auth: Auth;
  loadNotesApp?: ShellApp['loadNotesApp'];
  accountApi?: ReturnType<typeof accountApi>;
  identityProviders?: string[];
  fetch?: typeof globalThis.fetch;
  pwa?: Pwa;
  liveConnection?: LiveConnection;
}

const testLiveConnection = (): LiveConnection => ({
  live: createLiveHub(),
  start: vi.fn(),
  stop: vi.fn(),
});

/** The shell at `path`, as bootstrap renders it, with real state, services and messages. */
const renderAt = (path: string, options: Options) => {
  const state = createShellState();
  let navigate: ((to: string, options: { replace: boolean }) => void) | undefined;
  const calls = options.accountApi ?? accountApi();
  const account = createAccount({
    api: () => calls as unknown as ShellApp['api'],
    openBilling: (view) => state.dialog.set({ kind: 'billing', view }),
  });
  const liveConnection = options.liveConnection ?? testLiveConnection();
  const offline = createOffline({ log: { warn: () => undefined } });
  const services: ShellServices = createShellServices({
    state,
    i18n,
    navigateInApp: () => navigate,
    account,
    live: liveConnection.live,
    offline,
  });
  const app: ShellApp = {
    auth: options.auth,
    api: offline.wrap(
      createShellApi({ baseUrl: '', auth: options.auth, services, fetch: options.fetch }),
    ),
    identityProviders: options.identityProviders ?? [],
    state,
    services,
    account,
    liveConnection,
    offline,
    loadNotesApp: options.loadNotesApp ?? notesModule(),
    loadSharedNote: vi.fn(async (): Promise<ComponentModule<SharedNoteProps>> => ({
      default: SharedStub,
    })),
    loadDataPanel: vi.fn(async () => ({ default: DataPanelStub })),
    loadBilling: {
      dialog: vi.fn(async () => ({ default: BillingDialogStub })),
      planPanel: vi.fn(async () => ({ default: PlanPanelStub })),
      subscriptionPage: vi.fn(async () => ({ default: SubscriptionPageStub })),
    },
    loadMarketing: {
      site: vi.fn(async () => ({ default: MarketingStub })),
      feedback: vi.fn(async () => ({ default: FeedbackStub })),
    },
    pwa: options.pwa ?? createPwa(),
  };
  render(
    <MemoryRouter initialEntries={[path]}>
      <Shell
        app={app}
        onNavigate={(routerNavigate) => {
          navigate = (to, navigateOptions) => void routerNavigate(to, navigateOptions);
        }}
      />
    </MemoryRouter>,
  );
  return { app, state, services, calls };
};

beforeEach(async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  i18n = await createI18n('en');
  await registerMessages(i18n, shellMessages);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});

const sidebar = () => screen.queryByRole('complementary', { name: 'Sidebar' });

/** Signs out as a person does: the account menu in the header, then Sign out. */
const signOutFrom = (header: HTMLElement, account = /^Account: /, signOut = 'Sign out') => {
  fireEvent.click(within(header).getByRole('button', { name: account }));
  fireEvent.click(within(header).getByRole('menuitem', { name: signOut }));
};

describe('the shell', () => {
  it('welcomes a signed-out visitor without sidebar; Sign in opens the login dialog', () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    const loadNotesApp = notesModule();
    renderAt('/', { auth, loadNotesApp });

    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe(
      'Think on paper. Find it again.',
    );
    expect(sidebar()).toBeNull();
    fireEvent.click(within(main).getByRole('button', { name: 'Sign in' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign in to Noted' });
    expect(within(dialog).queryByRole('button', { name: /Continue with/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue to sign in' }));

    expect(auth.login).toHaveBeenCalledWith({ returnTo: '/' });
    expect(loadNotesApp).not.toHaveBeenCalled();
  });

  it('offers each identity provider the realm brokers, passing its kc_idp_hint', () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    renderAt('/', { auth, identityProviders: ['google', 'github'] });

    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign in' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign in to Noted' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue with GitHub' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue with Google' }));

    expect(auth.login).toHaveBeenNthCalledWith(1, { idpHint: 'github', returnTo: '/' });
    expect(auth.login).toHaveBeenNthCalledWith(2, { idpHint: 'google', returnTo: '/' });
  });

  it('shows why a sign-in did not work', () => {
    const { auth } = fakeAuth({ status: 'signedOut', notice: 'signInCancelled' });
    renderAt('/', { auth });
    expect(screen.getByRole('status').textContent).toBe('Sign-in was cancelled.');
  });

  it("shows a visitor who never signed in here the visitors' page while the session check runs", () => {
    const { auth } = fakeAuth({ status: 'loading' }, { wasSignedIn: false });
    renderAt('/', { auth });
    expect(screen.queryByText('Checking your session…')).toBeNull();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe(
      'Think on paper. Find it again.',
    );
    fireEvent.click(within(main).getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('dialog', { name: 'Sign in to Noted' })).toBeTruthy();
  });

  it('shows the user, checks the account once and renders the notes module with the sidebar', async () => {
    const { auth, set } = fakeAuth({ status: 'loading' });
    const loadNotesApp = notesModule();
    const { calls } = renderAt('/', { auth, loadNotesApp });
    expect(screen.getByRole('status').textContent).toBe('Checking your session…');

    act(() => set(signedIn));

    expect(await screen.findByText('Notes with a client and the shell at /')).toBeTruthy();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Ada Lovelace')).toBeTruthy();
    fireEvent.click(within(header).getByRole('button', { name: 'Account: Ada Lovelace' }));
    expect(within(header).getByRole('menu').textContent).toContain('ada@example.com');
    expect(sidebar()).toBeTruthy();
    expect(calls.users.check).toHaveBeenCalledTimes(1);
    expect(calls.users.create).not.toHaveBeenCalled();
    expect(loadNotesApp).toHaveBeenCalledTimes(1);

    fireEvent.click(within(header).getByRole('menuitem', { name: 'Sign out' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it('asks before signing out while changes made on this device wait to be sent', async () => {
    const { auth, set } = fakeAuth({ status: 'loading' });
    const { app } = renderAt('/', { auth });
    act(() => set(signedIn));
    await screen.findByText('Notes with a client and the shell at /');
    vi.spyOn(app.offline, 'pending').mockReturnValue([
      { noteId: 'n1', kind: 'create', title: 'Written offline', state: 'waiting', since: '' },
      { noteId: 'n2', kind: 'update', title: 'Edited offline', state: 'conflict', since: '' },
    ]);
    const header = screen.getByRole('banner');
    signOutFrom(header);
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Sign out with changes not sent?',
    });
    expect(dialog.textContent).toContain(
      '2 changes made on this device have not reached the server',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(auth.logout).not.toHaveBeenCalled();

    signOutFrom(header);
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Sign out and delete them',
      }),
    );
    await waitFor(() => expect(auth.logout).toHaveBeenCalledTimes(1));
  });

  it('opens the live connection for the user found, and closes it on sign-out', async () => {
    const { auth, set } = fakeAuth({ status: 'loading' });
    const liveConnection = testLiveConnection();
    const { calls } = renderAt('/', { auth, liveConnection });
    expect(liveConnection.start).not.toHaveBeenCalled();
    act(() => set(signedIn));
    await screen.findByText('Notes with a client and the shell at /');
    expect(calls.users.check).toHaveBeenCalledTimes(1);
    expect(liveConnection.start).toHaveBeenCalledWith(user.userId);
    act(() => set({ status: 'signedOut' }));
    expect(liveConnection.stop).toHaveBeenCalled();
  });

  it('keeps the header and sidebar working when the notes module cannot be loaded', async () => {
    const { auth } = fakeAuth(signedIn);
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => {
      throw new RemoteLoadError('notes/NotesApp', new Error('manifest 503'));
    });
    renderAt('/', { auth, loadNotesApp });

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The notes module could not be loaded.',
    );
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('link', { name: 'Feedback' }));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Feedback form');
    signOutFrom(screen.getByRole('banner'));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it.each([
    '/notes/7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001',
    '/todos',
    '/review',
    '/mindlink',
    '/chat',
    '/chat/3b2f6a0e-8c1d-4e5f-9a7b-0c1d2e3f4a5b',
    '/summaries',
    '/settings/ai',
  ])('hands %s to the notes module, which routes it', async (path) => {
    const { auth } = fakeAuth(signedIn);
    renderAt(path, { auth });
    expect(await screen.findByText(`Notes with a client and the shell at ${path}`)).toBeTruthy();
  });

  it('asks a signed-out visitor of a private page to sign in', () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    renderAt('/notes/7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001', { auth });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to see this page');
  });

  it.each([
    '/landing',
    '/guide',
    '/guide/capture',
    '/blog',
    '/blog/why-notes',
    '/about',
    '/nowhere/at-all',
  ])('hands %s to the marketing remote, which draws the site around it', async (path) => {
    const { auth } = fakeAuth(signedIn);
    const loadNotesApp = notesModule();
    const { app } = renderAt(path, { auth, loadNotesApp });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      `Site page: ${path}`,
    );
    expect(sidebar()).toBeNull();
    expect(loadNotesApp).not.toHaveBeenCalled();
    expect(app.loadMarketing.site).toHaveBeenCalledTimes(1);
  });

  it('shows the feedback form in the layout with the sidebar', async () => {
    const { auth } = fakeAuth(signedIn);
    const { app } = renderAt('/feedback', { auth });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Feedback form');
    expect(sidebar()).not.toBeNull();
    expect(app.loadMarketing.feedback).toHaveBeenCalledTimes(1);
  });

  it('opens the sign-in dialog for a visitor the site sent to /?signin, and keeps the hint', async () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    renderAt('/?signin', { auth });
    expect(await screen.findByRole('dialog', { name: 'Sign in to Noted' })).toBeTruthy();
    expect(localStorage.getItem('notedSignedIn')).toBeNull();
  });

  it.each([
    ['/subscription/success?session_id=cs_test_1', 'success'],
    ['/subscription/cancel', 'cancel'],
  ])('hands %s to the billing remote, in the layout without sidebar', async (path, page) => {
    const { auth } = fakeAuth(signedIn);
    const { app } = renderAt(path, { auth });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      `Subscription page: ${page}`,
    );
    expect(sidebar()).toBeNull();
    expect(app.loadBilling.subscriptionPage).toHaveBeenCalledTimes(1);
  });

  it('asks a signed-out visitor back from a checkout to sign in, and shows the cancel page to anyone', async () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    renderAt('/subscription/success?session_id=cs_test_1', { auth });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to see this page');
    cleanup();
    renderAt('/subscription/cancel', { auth });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Subscription page: cancel',
    );
  });

  it('shows a shared note without an account, in the layout without sidebar', async () => {
    const { auth } = fakeAuth({ status: 'loading' });
    const loadNotesApp = notesModule();
    const { app } = renderAt('/notes/s/AAAAAAAAAAAAAAAAAAAAAA', { auth, loadNotesApp });

    expect(await screen.findByText('Shared note AAAAAAAAAAAAAAAAAAAAAA')).toBeTruthy();
    expect(app.loadSharedNote).toHaveBeenCalledTimes(1);
    expect(loadNotesApp).not.toHaveBeenCalled();
    expect(sidebar()).toBeNull();
  });

  it('follows the address once the session check has taken the provider answer out of it', async () => {
    window.history.replaceState(null, '', '/todos?code=c0de&state=st4te');
    const { auth, set } = fakeAuth({ status: 'loading' });
    const Where = () => <p>Router at {useLocation().search || 'no query'}</p>;
    const loadNotesApp = vi.fn(async (): Promise<ComponentModule<NotesAppProps>> => ({
      default: Where,
    }));
    renderAt('/todos?code=c0de&state=st4te', { auth, loadNotesApp });

    window.history.replaceState(null, '', '/todos');
    act(() => set(signedIn));

    expect(await screen.findByText('Router at no query')).toBeTruthy();
    window.history.replaceState(null, '', '/');
  });
});

describe('the sidebar', () => {
  it('is expanded on first use and remembers being collapsed', async () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/', { auth });
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(toggle);

    expect(localStorage.getItem('sidebarCollapsed')).toBe('true');
    const expand = screen.getByRole('button', { name: 'Expand sidebar' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    // Collapsed, the links keep their names for assistive technology.
    expect(within(sidebar() as HTMLElement).getByRole('link', { name: 'Mind map' })).toBeTruthy();

    cleanup();
    renderAt('/', { auth });
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
  });

  it('marks the area of the current page', () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/notes/7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001', { auth });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Notes' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(
      within(nav).getByRole('link', { name: 'Mind map' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('leads to the knowledge chat, marked while a conversation is open', async () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/', { auth });
    const nav = screen.getByRole('navigation', { name: 'Main' });

    fireEvent.click(within(nav).getByRole('link', { name: 'Chat' }));

    expect(await screen.findByText('Notes with a client and the shell at /chat')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Chat' }).getAttribute('aria-current')).toBe(
      'page',
    );
    cleanup();
    renderAt('/chat/3b2f6a0e-8c1d-4e5f-9a7b-0c1d2e3f4a5b', { auth });
    const again = screen.getByRole('navigation', { name: 'Main' });
    expect(within(again).getByRole('link', { name: 'Chat' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(
      within(again).getByRole('link', { name: 'Notes' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('opens as a drawer from the menu button and closes on a choice', async () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/', { auth });
    fireEvent.click(screen.getByRole('button', { name: 'Open the menu' }));
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    fireEvent.click(within(drawer).getByRole('link', { name: 'Guide' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Site page: /guide',
    );
  });
});

describe('settings', () => {
  it('switches the whole shell to Chinese and back, saving the choice', async () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/', { auth });
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(await within(dialog).findByText('Plan: free')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('radio', { name: '中文（简体）' }));

    const chinese = await screen.findByRole('dialog', { name: '设置' });
    expect(localStorage.getItem('locale')).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
    fireEvent.click(within(chinese).getByRole('button', { name: '关闭' }));
    const chineseSidebar = screen.getByRole('complementary', { name: '侧边栏' });
    expect(within(chineseSidebar).getByRole('link', { name: '笔记' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '账户：Ada Lovelace' }));
    expect(screen.getByRole('menuitem', { name: '退出登录' })).toBeTruthy();

    fireEvent.click(within(chineseSidebar).getByRole('button', { name: '设置' }));
    fireEvent.click(screen.getByRole('radio', { name: 'English' }));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeTruthy();
  });

  it("shows the billing remote's plan panel, whose Upgrade opens the plans in place of the settings", async () => {
    const { auth } = fakeAuth(signedIn);
    const { app } = renderAt('/', { auth });
    expect(app.loadBilling.planPanel).not.toHaveBeenCalled();
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('button', { name: 'Settings' }));
    const panel = await screen.findByRole('region', { name: 'Plan panel' });
    fireEvent.click(within(panel).getByRole('button', { name: 'Upgrade' }));

    expect(await screen.findByRole('dialog', { name: 'Billing: upgrade' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close billing' }));
    expect(screen.queryByRole('dialog', { name: 'Billing: upgrade' })).toBeNull();
  });

  it("shows the notes remote's data panel under its own section, loaded when Settings open", async () => {
    const { auth } = fakeAuth(signedIn);
    const { app } = renderAt('/', { auth });
    expect(app.loadDataPanel).not.toHaveBeenCalled();
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(within(dialog).getByRole('heading', { name: 'Appearance and language' })).toBeTruthy();
    expect(await within(dialog).findByRole('region', { name: 'Data panel' })).toBeTruthy();
    expect(app.loadDataPanel).toHaveBeenCalledTimes(1);
  });

  it('opens on the plan when asked to (a refused export offers the way there)', async () => {
    const { auth } = fakeAuth(signedIn);
    const { services } = renderAt('/', { auth });
    const scrolled: Element[] = [];
    // jsdom lays nothing out and has no scrollIntoView; it is given one for this test.
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      act(() => services.openSettings('plan'));
      const panel = await screen.findByRole('region', { name: 'Plan panel' });
      expect(scrolled).toHaveLength(1);
      expect(scrolled[0]?.contains(panel)).toBe(true);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('deletes the account from its danger zone once the email is typed, then signs out', async () => {
    const { auth } = fakeAuth(signedIn);
    const sent: { method: string; url: string; body: unknown }[] = [];
    renderAt('/', {
      auth,
      fetch: async (input, init = {}) => {
        sent.push({
          method: init.method ?? 'GET',
          url: String(input),
          body: JSON.parse(String(init.body ?? 'null')),
        });
        return Response.json(
          { userId: 'a1b2c3d4-0000-4000-8000-000000000001', deletedAt: '2026-01-02T03:04:05Z' },
          { status: 202 },
        );
      },
    });
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('button', { name: 'Settings' }));
    const settings = screen.getByRole('dialog', { name: 'Settings' });
    const zone = within(settings).getByRole('region', { name: 'Delete account' });
    fireEvent.click(within(zone).getByRole('button', { name: 'Delete account…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    fireEvent.change(within(dialog).getByLabelText(/^Type your email/), {
      target: { value: 'ada@example.com' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));

    await waitFor(() => expect(auth.logout).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([
      { method: 'DELETE', url: '/user', body: { confirm: 'ada@example.com' } },
    ]);
  });

  it('says so where the plans would be when the billing remote cannot be loaded', async () => {
    const { auth } = fakeAuth(signedIn);
    const { app, services } = renderAt('/', { auth });
    vi.mocked(app.loadBilling.dialog).mockRejectedValue(
      new RemoteLoadError('billing/BillingDialog', new Error('manifest 503')),
    );
    act(() => services.offerUpgrade());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The billing module could not be loaded.');
    // In a dialog of the shell's, which closes as the remote's own would.
    const dialog = screen.getByRole('dialog', { name: 'Choose a plan' });
    expect(dialog.contains(alert)).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('changes the theme from the settings, saved and applied to the root', () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/', { auth });
    fireEvent.click(within(sidebar() as HTMLElement).getByRole('button', { name: 'Settings' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(screen.getByRole('button', { name: /^Theme: Dark\./ })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});

describe('the API client of the shell', () => {
  it('says what the plan allows and when it resets in a toast that stays, offering the plans', async () => {
    const { auth } = fakeAuth(signedIn);
    const { services, state, calls } = renderAt('/', { auth });
    await screen.findByText(/^Notes with a client/);
    const api = createShellApi({
      baseUrl: '',
      auth,
      services,
      fetch: async () => new Response('', { status: 403 }),
    });

    await expect(api.notes.create({ title: 't', note: 'n', tags: [] })).rejects.toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
    });

    const message = await screen.findByText(
      'Your plan allows 50 notes a month; you can write more on December 1, or upgrade.',
    );
    expect(calls.users.usage).toHaveBeenCalledTimes(2);
    expect(state.toaster.current()).toMatchObject({ type: 'warning', duration: 0 });
    const toast = message.closest<HTMLElement>('.ui-toast');
    if (!toast) throw new Error('the message is not in a toast');
    fireEvent.click(within(toast).getByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByRole('dialog', { name: 'Billing: upgrade' })).toBeTruthy();
  });

  it('leaves an import refused by the allowance to the import, which says what it needs', async () => {
    const { auth } = fakeAuth(signedIn);
    const { services, state } = renderAt('/', { auth });
    await screen.findByText(/^Notes with a client/);
    const api = createShellApi({
      baseUrl: '',
      auth,
      services,
      fetch: async () =>
        Response.json(
          {
            error: {
              code: 'NOTES_LEFT_NOT_ENOUGH',
              message: 'The import makes 240 new notes; 35 are left this month',
              details: { needed: 240, left: 35 },
            },
          },
          { status: 403 },
        ),
    });
    await expect(api.imports.file(new Blob(['# A']), { fileName: 'a.md' })).rejects.toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
      details: { needed: 240, left: 35 },
    });
    expect(state.toaster.current()).toBeUndefined();
  });

  it('says the month is used up when the usage cannot be had', async () => {
    const { auth } = fakeAuth(signedIn);
    const calls = accountApi();
    calls.users.usage.mockRejectedValue(new Error('down'));
    const { services } = renderAt('/', { auth, accountApi: calls });
    await screen.findByText(/^Notes with a client/);
    const api = createShellApi({
      baseUrl: '',
      auth,
      services,
      fetch: async () => new Response('', { status: 403 }),
    });
    await api.notes.create({ title: 't', note: 'n', tags: [] }).catch(() => undefined);
    expect(await screen.findByText('You have used all your notes for this month.')).toBeTruthy();
  });

  it('on a server without payments, says the limit is the server’s, with no Upgrade', async () => {
    const { auth } = fakeAuth(signedIn);
    const calls = accountApi();
    calls.billing.status.mockResolvedValue({ ...freePlan, paymentsEnabled: false });
    const { services, state } = renderAt('/', { auth, accountApi: calls });
    await screen.findByText(/^Notes with a client/);
    const api = createShellApi({
      baseUrl: '',
      auth,
      services,
      fetch: async () => new Response('', { status: 403 }),
    });
    await api.notes.create({ title: 't', note: 'n', tags: [] }).catch(() => undefined);

    const message = await screen.findByText(
      'This server allows 50 notes a month, a limit set by whoever runs it; you can write more on December 1.',
    );
    expect(state.toaster.current()).toMatchObject({ type: 'warning', duration: 0 });
    expect(state.toaster.current()?.action).toBeUndefined();
    const toast = message.closest<HTMLElement>('.ui-toast');
    if (!toast) throw new Error('the message is not in a toast');
    expect(within(toast).queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it('takes a PAYMENTS_DISABLED answer as the server taking no payments, for every remote', async () => {
    const { auth } = fakeAuth(signedIn);
    const { services } = renderAt('/', { auth });
    await screen.findByText(/^Notes with a client/);
    await waitFor(() => expect(services.account.get().subscription?.paymentsEnabled).toBe(true));
    const api = createShellApi({
      baseUrl: '',
      auth,
      services,
      fetch: async () =>
        Response.json(
          { error: { code: 'PAYMENTS_DISABLED', message: 'This server takes no payments' } },
          { status: 404 },
        ),
    });
    await expect(api.billing.portal()).rejects.toMatchObject({ code: 'PAYMENTS_DISABLED' });
    expect(services.account.get().subscription).toMatchObject({
      planName: 'free',
      paymentsEnabled: false,
    });
  });
});

describe('addresses', () => {
  it('follows ?next= to a page of the app once signed in', async () => {
    const { auth } = fakeAuth(signedIn);
    renderAt('/?next=%2Ftodos', { auth });
    expect(await screen.findByText('Notes with a client and the shell at /todos')).toBeTruthy();
  });

  it('refuses ?next= that leads to another site, says so and stays in the app', async () => {
    const { auth } = fakeAuth(signedIn);
    const { state } = renderAt('/?next=https%3A%2F%2Fevil.example%2Fphish', { auth });
    expect(await screen.findByText('Notes with a client and the shell at /')).toBeTruthy();
    expect(state.toaster.current()).toMatchObject({
      type: 'warning',
      message: 'This address leads outside Noted and was not opened: https://evil.example/phish',
    });
  });

  it('signs in back to the page it started from', () => {
    const { auth } = fakeAuth({ status: 'signedOut' });
    renderAt('/notes/n1?tab=links', { auth });
    fireEvent.click(screen.getByRole('main').querySelector('button') as HTMLButtonElement);
    fireEvent.click(screen.getByRole('button', { name: 'Continue to sign in' }));
    expect(auth.login).toHaveBeenCalledWith({ returnTo: '/notes/n1?tab=links' });
  });
});

describe('the note link popup', () => {
  const note = {
    id: 'n1',
    title: 'Linked thoughts',
    note: 'The start of the linked note.',
    tags: ['ideas'],
    images: [],
    isPinned: false,
    publicId: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('shows a linked note in place and opens it, handing the note over', async () => {
    const { auth } = fakeAuth(signedIn);
    const fetch = vi.fn(async (url: string | URL | Request) =>
      String(url) === '/api/notes/n1'
        ? new Response(JSON.stringify(note), { headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 404 }),
    );
    const { services } = renderAt('/', { auth, fetch });
    act(() => services.showNoteLink('n1'));

    const popup = await screen.findByRole('dialog', { name: 'Linked thoughts' });
    expect(within(popup).getByText('The start of the linked note.')).toBeTruthy();
    expect(within(popup).getByText('#ideas')).toBeTruthy();
    fireEvent.click(within(popup).getByRole('button', { name: 'Open' }));

    expect(await screen.findByText('Notes with a client and the shell at /notes/n1')).toBeTruthy();
    expect(takeCurrentNote('n1')).toEqual(note);
  });

  it('says why a linked note could not be loaded', async () => {
    const { auth } = fakeAuth(signedIn);
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ error: { code: 'NOT_FOUND', message: 'There is no such note' } }),
          {
            status: 404,
            headers: { 'content-type': 'application/json' },
          },
        ),
    );
    const { services } = renderAt('/', { auth, fetch });
    act(() => services.showNoteLink('gone'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The note could not be loaded: There is no such note',
    );
  });

  it('offers the new version once it is ready, and switches to it on Refresh', async () => {
    const { auth } = fakeAuth(signedIn);
    const reload = vi.fn();
    const fakeWindow = Object.assign(new EventTarget(), {
      document,
      location: { pathname: '/', reload },
      setInterval: () => 0,
    }) as unknown as Window;
    const latest = vi.fn(async () => Response.json({ buildId: 'a-newer-build' }));
    const pwa = createPwa({ window: fakeWindow, fetch: latest, buildId: 'this-build' });
    renderAt('/', { auth, pwa });
    await screen.findByText(/^Notes with a client/);

    await act(() => pwa.checkForBuild());
    const message = await screen.findByText('A new version of Noted is ready.');
    const toast = message.closest<HTMLElement>('.ui-toast');
    if (!toast) throw new Error('the message is not in a toast');
    fireEvent.click(within(toast).getByRole('button', { name: 'Refresh' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('offers installing the app; "Don\'t ask again" hides the offer for good', async () => {
    const { auth } = fakeAuth(signedIn);
    const pwa = createPwa();
    renderAt('/', { auth, pwa });
    await screen.findByText(/^Notes with a client/);
    pwa.start();
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: vi.fn(async () => undefined),
      userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
    });
    act(() => {
      window.dispatchEvent(offer);
    });
    const prompt = await screen.findByRole('complementary', { name: /Install Noted/ });
    fireEvent.click(within(prompt).getByRole('button', { name: "Don't ask again" }));
    expect(screen.queryByRole('complementary', { name: /Install Noted/ })).toBeNull();
    expect(localStorage.getItem(installHiddenKey)).toBe('1');

    const hiddenForGood = createPwa();
    hiddenForGood.start();
    window.dispatchEvent(new Event('beforeinstallprompt', { cancelable: true }));
    expect(hiddenForGood.state.get().installable).toBe(false);
  });
});
