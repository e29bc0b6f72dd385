import type { ApiClient, SubscriptionStatus, User, UserUsage } from '@noted/api';
import {
  checkoutSessionKey,
  type AccountState,
  type BillingView,
  type ShellAccount,
} from '@noted/ui';
import type { AuthUser } from './auth/auth';
import { log } from './log';
import { createStore } from './store';

/** The plan of a user whose status could not be had: free, inactive, nothing granted. */
export const inactiveSubscription: SubscriptionStatus = {
  planName: 'free',
  status: 'inactive',
  expiresAt: null,
  isActive: false,
  entitlements: null,
  interval: null,
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  paymentFailed: false,
  paymentsEnabled: false,
};

const signedOut: AccountState = {
  phase: 'signedOut',
  user: undefined,
  subscription: undefined,
  subscriptionError: undefined,
  usage: undefined,
  error: undefined,
};

/** Spec section 7: an answer is the status unless it holds an `error` field. */
const isErrorAnswer = (answer: unknown) =>
  typeof answer !== 'object' || answer === null || 'error' in answer;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface AccountOptions {
  /** The page's API client, read at call time (it is created after the shell's services). */
  api: () => Pick<ApiClient, 'users' | 'billing'>;
  openBilling: (view: BillingView) => void;
  /** Where a checkout's session id waits for the return from Stripe. */
  storage?: Pick<Storage, 'getItem' | 'removeItem'>;
  location?: Pick<Location, 'pathname' | 'search'>;
  /** Where the last account seen is kept for an offline start (user, plan, usage; no token). */
  keep?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

const keptAccountKey = 'noted:account';

type KeptAccount = Pick<AccountState, 'user' | 'subscription' | 'usage'> & { sub: string };

/** The shell's account, with what only the shell does: start the checks and forget them. */
export interface Account extends ShellAccount {
  /**
   * Spec section 4, once per signed-in subject however often it is asked (again after a
   * failure): `GET /user/check`, `POST /user/create` when the user does not exist, then the
   * plan (the checkout verified first when the browser comes back from one) and the usage.
   * Rejects when the user can be neither found nor created. `offline`: the account as last
   * seen here stands in, and the next start checks it again.
   */
  start: (user: AuthUser, options?: { offline?: boolean }) => Promise<AccountState>;
  /** Signed out: nothing is known any more. */
  reset: () => void;
}

/** The signed-in user's plan and usage, kept for the shell and every remote. */
export const createAccount = ({
  api,
  openBilling,
  storage = globalThis.sessionStorage,
  location = globalThis.location,
  keep = globalThis.localStorage,
}: AccountOptions): Account => {
  const store = createStore<AccountState>(signedOut);
  /** Each checkout is verified once per page, whoever asks (the sign-in, the success page). */
  const verifications = new Map<string, Promise<SubscriptionStatus | undefined>>();
  let subject: string | undefined;
  let started: Promise<AccountState> | undefined;
  /** Bumped on every start and reset, so an answer for someone signed out since is dropped. */
  let generation = 0;

  /** The checkout the browser comes back from: `session_id` on the success page, or the saved one. */
  const takeCheckoutSession = (): string | undefined => {
    let saved: string | null = null;
    try {
      saved = storage?.getItem(checkoutSessionKey) ?? null;
      storage?.removeItem(checkoutSessionKey);
    } catch {
      // Storage refused (a private window): only the address can tell.
    }
    const fromAddress =
      location?.pathname === '/subscription/success'
        ? new URLSearchParams(location.search).get('session_id')
        : null;
    return fromAddress || saved || undefined;
  };

  const verify = (sessionId: string) => {
    let verification = verifications.get(sessionId);
    if (!verification) {
      verification = api()
        .billing.verify(sessionId)
        .then(
          (answer) => {
            if (!isErrorAnswer(answer)) return answer;
            log.warn('The checkout verification answered an error; asking for the status.');
            return undefined;
          },
          (error: unknown) => {
            log.warn('Verifying the checkout failed; asking for the status.', error);
            return undefined;
          },
        );
      verifications.set(sessionId, verification);
    }
    return verification;
  };

  const loadSubscription = async (
    sessionId: string | undefined,
  ): Promise<Pick<AccountState, 'subscription' | 'subscriptionError'>> => {
    const verified = sessionId ? await verify(sessionId) : undefined;
    if (verified) return { subscription: verified, subscriptionError: undefined };
    try {
      const status = await api().billing.status();
      if (isErrorAnswer(status)) throw new Error('The subscription status answered an error');
      return { subscription: status, subscriptionError: undefined };
    } catch (error) {
      log.error('Loading your plan failed; the free plan stands in.', error);
      return { subscription: inactiveSubscription, subscriptionError: reasonOf(error) };
    }
  };

  const loadUsage = (): Promise<UserUsage | undefined> =>
    api()
      .users.usage()
      .catch((error: unknown) => {
        log.warn("Loading this month's usage failed.", error);
        return undefined;
      });

  const findOrCreate = async (user: AuthUser): Promise<User> => {
    const { users } = api();
    const check = await users.check();
    if (check.exists && check.user) return check.user;
    return users.create({ sub: user.sub, email: user.email, name: user.name });
  };

  const keepAccount = (sub: string, state: AccountState | undefined) => {
    try {
      if (!state) return keep?.removeItem(keptAccountKey);
      const { user, subscription, usage } = state;
      keep?.setItem(keptAccountKey, JSON.stringify({ sub, user, subscription, usage }));
    } catch {
      // Refused storage: an offline start shows no plan.
    }
  };
  const keptAccount = (sub: string): KeptAccount | undefined => {
    try {
      const kept = JSON.parse(keep?.getItem(keptAccountKey) ?? 'null') as KeptAccount | null;
      return kept?.sub === sub && kept.user ? kept : undefined;
    } catch {
      return undefined;
    }
  };

  const start = (user: AuthUser, { offline = false } = {}): Promise<AccountState> => {
    if (offline) {
      generation += 1;
      subject = undefined;
      started = undefined;
      const kept = keptAccount(user.sub);
      store.set(
        kept
          ? {
              ...signedOut,
              phase: 'ready',
              user: kept.user,
              subscription: kept.subscription,
              usage: kept.usage,
            }
          : { ...signedOut, phase: 'failed', error: 'offline' },
      );
      return kept ? Promise.resolve(store.get()) : Promise.reject(new Error('offline'));
    }
    if (subject === user.sub && started) return started;
    generation += 1;
    const mine = generation;
    subject = user.sub;
    store.set({ ...signedOut, phase: 'loading' });
    const run = async (): Promise<AccountState> => {
      let found: User;
      try {
        found = await findOrCreate(user);
      } catch (error) {
        log.error('Loading your account failed.', error);
        if (mine === generation) {
          started = undefined;
          store.set({ ...signedOut, phase: 'failed', error: reasonOf(error) });
        }
        throw error;
      }
      const [plan, usage] = await Promise.all([
        loadSubscription(takeCheckoutSession()),
        loadUsage(),
      ]);
      if (mine === generation) {
        store.set({ ...signedOut, phase: 'ready', user: found, ...plan, usage });
        keepAccount(user.sub, store.get());
      }
      return store.get();
    };
    started = run();
    return started;
  };

  const refresh = async ({ sessionId }: { sessionId?: string } = {}) => {
    await started?.catch(() => undefined);
    const mine = generation;
    if (store.get().phase !== 'ready') return store.get();
    const [plan, usage] = await Promise.all([loadSubscription(sessionId), loadUsage()]);
    if (mine === generation) {
      store.set((current) => ({ ...current, ...plan, usage: usage ?? current.usage }));
    }
    return store.get();
  };

  return {
    get: store.get,
    subscribe: store.subscribe,
    start,
    refresh,
    reset: () => {
      generation += 1;
      subject = undefined;
      started = undefined;
      store.set(signedOut);
      keepAccount('', undefined);
    },
    setSubscription: (subscription) =>
      store.set((current) => ({ ...current, subscription, subscriptionError: undefined })),
    openBilling,
  };
};
