import { AppError, type SubscriptionStatus, type User, type UserUsage } from '@noted/api';
import { checkoutSessionKey } from '@noted/ui';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccount, inactiveSubscription } from './account';

const user: User = {
  userId: '7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001',
  authId: 'user-1',
  email: 'ada@example.com',
  name: 'Ada',
  entitlements: {},
  createdAt: '2025-01-01T00:00:00.000Z',
};
const signedIn = { sub: 'user-1', email: 'ada@example.com', name: 'Ada' };

const premium: SubscriptionStatus = {
  planName: 'premium',
  status: 'active',
  expiresAt: '2025-12-01T00:00:00.000Z',
  isActive: true,
  entitlements: { notes_per_month: -1, recordingTimeLimit: 3600 },
  interval: 'month',
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  paymentFailed: false,
  paymentsEnabled: true,
};
const free: SubscriptionStatus = {
  ...inactiveSubscription,
  entitlements: { notes_per_month: 100 },
  paymentsEnabled: true,
};
const usage: UserUsage = {
  period: '2025-11',
  resetsAt: '2025-12-01T00:00:00.000Z',
  notes: { used: 63, limit: 100 },
  recordingTimeLimit: 60,
};

/** The API calls of the account, each recording its turn in `order`. */
const fakeApi = () => {
  const order: string[] = [];
  const call =
    <T>(name: string, answer: () => T | Promise<T>) =>
    async () => {
      order.push(name);
      return answer();
    };
  const users = {
    check: vi.fn(call('check', () => ({ exists: true, user }))),
    create: vi.fn(call('create', () => user)),
    usage: vi.fn(call('usage', () => usage)),
  };
  const billing = {
    verify: vi.fn(call<unknown>('verify', () => premium)),
    status: vi.fn(call<unknown>('status', () => free)),
  };
  return { order, users, billing };
};

const accountOver = (api: ReturnType<typeof fakeApi>, location = { pathname: '/', search: '' }) =>
  createAccount({
    api: () => api as never,
    openBilling: vi.fn(),
    storage: sessionStorage,
    location,
  });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('the account after sign-in (spec section 4)', () => {
  it('checks the user, then asks for the plan and the usage', async () => {
    const api = fakeApi();
    const account = accountOver(api);

    const state = await account.start(signedIn);

    expect(api.order.slice(0, 2)).toEqual(['check', 'status']);
    expect(api.users.create).not.toHaveBeenCalled();
    expect(api.billing.verify).not.toHaveBeenCalled();
    expect(state).toMatchObject({ phase: 'ready', user, subscription: free, usage });
    expect(account.get()).toBe(state);
  });

  it('creates a user who does not exist yet with the subject, email and name of the token', async () => {
    const api = fakeApi();
    api.users.check.mockImplementation(async () => {
      api.order.push('check');
      return { exists: false, user: null } as never;
    });
    await accountOver(api).start(signedIn);

    expect(api.users.create).toHaveBeenCalledWith({
      sub: 'user-1',
      email: 'ada@example.com',
      name: 'Ada',
    });
    expect(api.order.slice(0, 3)).toEqual(['check', 'create', 'status']);
  });

  it('verifies the checkout saved before leaving for Stripe first, and takes its answer', async () => {
    sessionStorage.setItem(checkoutSessionKey, 'cs_test_saved');
    const api = fakeApi();
    const state = await accountOver(api).start(signedIn);

    expect(api.billing.verify).toHaveBeenCalledWith('cs_test_saved');
    expect(api.order.filter((name) => name !== 'usage')).toEqual(['check', 'verify']);
    expect(state.subscription).toEqual(premium);
    expect(sessionStorage.getItem(checkoutSessionKey)).toBeNull();
  });

  it('verifies the session_id of /subscription/success', async () => {
    const api = fakeApi();
    await accountOver(api, {
      pathname: '/subscription/success',
      search: '?session_id=cs_test_back',
    }).start(signedIn);
    expect(api.billing.verify).toHaveBeenCalledWith('cs_test_back');
  });

  it.each([
    [
      'answers an error field',
      () => ({ error: { code: 'NOT_FOUND', message: 'No such session' } }),
    ],
    [
      'fails',
      () => {
        throw new AppError('NOT_FOUND', 'Not a checkout session of the caller');
      },
    ],
  ])('falls back to the status when the verification %s', async (_, answer) => {
    sessionStorage.setItem(checkoutSessionKey, 'cs_test_saved');
    const api = fakeApi();
    api.billing.verify.mockImplementation(async () => {
      api.order.push('verify');
      return answer();
    });
    const state = await accountOver(api).start(signedIn);

    expect(api.order.filter((name) => name !== 'usage')).toEqual(['check', 'verify', 'status']);
    expect(state.subscription).toEqual(free);
    expect(state.subscriptionError).toBeUndefined();
  });

  it('keeps the error and stands in free and inactive, without entitlements, when the status fails too', async () => {
    const api = fakeApi();
    api.billing.status.mockRejectedValue(
      new AppError('UNAVAILABLE', 'The server could not be reached'),
    );
    const state = await accountOver(api).start(signedIn);

    expect(state.phase).toBe('ready');
    expect(state.subscription).toEqual(inactiveSubscription);
    expect(state.subscription?.entitlements).toBeNull();
    expect(state.subscriptionError).toBe('The server could not be reached');
  });

  it('checks once per subject, and again after a failure', async () => {
    const api = fakeApi();
    api.users.check.mockRejectedValueOnce(new AppError('UNAVAILABLE', 'down'));
    const account = accountOver(api);

    await expect(account.start(signedIn)).rejects.toThrow('down');
    expect(account.get()).toMatchObject({ phase: 'failed', error: 'down' });
    await Promise.all([account.start(signedIn), account.start(signedIn)]);
    await account.start(signedIn);

    expect(api.users.check).toHaveBeenCalledTimes(2);
    expect(account.get().phase).toBe('ready');
  });

  it('lets the success page refresh with the checkout the sign-in verified, verifying it once', async () => {
    const api = fakeApi();
    const account = accountOver(api, {
      pathname: '/subscription/success',
      search: '?session_id=cs_test_back',
    });
    void account.start(signedIn);

    const state = await account.refresh({ sessionId: 'cs_test_back' });

    expect(state.subscription).toEqual(premium);
    expect(api.billing.verify).toHaveBeenCalledTimes(1);
    expect(api.order.indexOf('check')).toBeLessThan(api.order.indexOf('verify'));
  });

  it('forgets everything on sign-out, and drops answers that come after', async () => {
    const api = fakeApi();
    let answer: (status: SubscriptionStatus) => void = () => undefined;
    api.billing.status.mockImplementation(
      () => new Promise<SubscriptionStatus>((resolve) => (answer = resolve)),
    );
    const account = accountOver(api);
    const started = account.start(signedIn);
    await vi.waitFor(() => expect(api.billing.status).toHaveBeenCalled());

    account.reset();
    answer(premium);
    await started;

    expect(account.get()).toMatchObject({ phase: 'signedOut', subscription: undefined });
  });

  it('takes the status a plan change answered as the current one', async () => {
    const api = fakeApi();
    const account = accountOver(api);
    await account.start(signedIn);
    const listener = vi.fn();
    account.subscribe(listener);

    account.setSubscription(premium);

    expect(account.get().subscription).toEqual(premium);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
