import { createInstance, type i18n as I18n } from 'i18next';
import { useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { vi } from 'vitest';
import { ConfirmHost } from './dialog/ConfirmHost';
import { createConfirmer } from './dialog/confirmer';
import { ImagePreview } from './image-preview/ImagePreview';
import { createLiveHub, type LiveHub } from './live';
import type { Locale, Messages } from './i18n/i18n';
import enUi from './messages/en/ui.json';
import zhUi from './messages/zh/ui.json';
import {
  ShellContext,
  type AccountState,
  type PendingChange,
  type ShellAccount,
  type ShellOffline,
  type ShellServices,
} from './shell';

const uiMessages: Record<Locale, Messages> = { en: enUi, zh: zhUi };

/** A language to show in a test, with its message sets. */
export interface TestTranslation {
  locale: Locale;
  sets: Record<string, Messages>;
}

/**
 * Test support: an i18next instance ready at once with English message sets (the shared ui set
 * is always included), and a shell whose services are vitest mocks. With `translation`, the
 * instance shows that language from its sets (and the ui set in it), English where a key is
 * missing, as on the page.
 */
export const createTestI18n = (
  sets: Record<string, Messages> = {},
  translation?: TestTranslation,
): I18n => {
  const resources: Record<string, Record<string, Messages>> = { en: { ui: enUi, ...sets } };
  if (translation) {
    const { locale } = translation;
    resources[locale] = { ...resources[locale], ui: uiMessages[locale], ...translation.sets };
  }
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({
    lng: translation?.locale ?? 'en',
    fallbackLng: 'en',
    resources,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
  return i18n;
};

/**
 * The shell's account as a remote sees it, holding `initial` (signed out by default): `refresh`
 * answers what it holds, `setSubscription` keeps what it is given; each is a spy.
 */
export const createTestAccount = (initial: Partial<AccountState> = {}): ShellAccount => {
  let state: AccountState = {
    phase: 'signedOut',
    user: undefined,
    subscription: undefined,
    subscriptionError: undefined,
    usage: undefined,
    error: undefined,
    ...initial,
  };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: vi.fn(async () => state),
    setSubscription: vi.fn((subscription) => {
      state = { ...state, subscription };
      for (const listener of listeners) listener();
    }),
    openBilling: vi.fn(),
  };
};

/** A device copy with nothing kept; `set` plays the network and the queue changing. */
export const createTestOffline = (): ShellOffline & {
  set: (next: { online?: boolean; pending?: PendingChange[] }) => void;
} => {
  let state: { online: boolean; pending: readonly PendingChange[] } = { online: true, pending: [] };
  const listeners = new Set<() => void>();
  return {
    online: () => state.online,
    pending: () => state.pending,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sendNow: vi.fn(async () => undefined),
    keepMine: vi.fn(async () => undefined),
    discard: vi.fn(async () => undefined),
    set: (next) => {
      state = { ...state, ...next };
      for (const listener of listeners) listener();
    },
  };
};

/**
 * A shell of mocks; `live.emit` plays a message of the live connection, `offline.set` the
 * device copy's network and queue.
 */
export const createTestShell = (
  i18n: I18n = createTestI18n(),
): ShellServices & { live: LiveHub; offline: ReturnType<typeof createTestOffline> } => ({
  toast: vi.fn(),
  confirm: vi.fn(async () => true),
  previewImage: vi.fn(),
  openNote: vi.fn(),
  showNoteLink: vi.fn(),
  navigate: vi.fn(),
  requestSignIn: vi.fn(),
  openSettings: vi.fn(),
  offerUpgrade: vi.fn(),
  account: createTestAccount(),
  setNavBadge: vi.fn(),
  live: createLiveHub(),
  offline: createTestOffline(),
  i18n,
});

/** Wraps a tree in the shell's services and its i18n instance. */
export function TestShell({ shell, children }: { shell: ShellServices; children: ReactNode }) {
  return (
    <ShellContext.Provider value={shell}>
      <I18nextProvider i18n={shell.i18n}>{children}</I18nextProvider>
    </ShellContext.Provider>
  );
}

interface PreviewRequest {
  src: string;
  title?: string;
  onClose?: () => void;
}

/**
 * A test shell whose confirm popup and image preview are the real ones (the other services stay
 * mocks): `Hosts` renders them, so a test answers the popup as a user would. `confirm` and
 * `previewImage` are still spies.
 */
export const createHostedTestShell = (i18n: I18n = createTestI18n()) => {
  const confirmer = createConfirmer();
  let preview: PreviewRequest | undefined;
  const listeners = new Set<() => void>();
  const setPreview = (next: PreviewRequest | undefined) => {
    preview = next;
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const shell: ShellServices = {
    ...createTestShell(i18n),
    confirm: vi.fn(confirmer.confirm),
    previewImage: vi.fn((src: string, options: Omit<PreviewRequest, 'src'> = {}) =>
      setPreview({ src, ...options }),
    ),
  };

  function Hosts() {
    const shown = useSyncExternalStore(subscribe, () => preview);
    return (
      <>
        <ConfirmHost confirmer={confirmer} />
        {shown ? (
          <ImagePreview
            key={shown.src}
            src={shown.src}
            title={shown.title}
            onClose={() => {
              setPreview(undefined);
              shown.onClose?.();
            }}
          />
        ) : null}
      </>
    );
  }

  return { shell, Hosts };
};
