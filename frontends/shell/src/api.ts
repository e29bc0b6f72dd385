import { createApiClient, routes, type ApiClient, type UserUsage } from '@noted/api';
import { paymentsDisabledIn, type AccountState, type ShellServices } from '@noted/ui';
import type { Auth } from './auth/auth';
import { log } from './log';

type QuotaServices = Pick<ShellServices, 'toast' | 'offerUpgrade' | 'i18n' | 'account'>;

/** The day the monthly count starts again, as the page's language writes it (a UTC month). */
const resetDay = (resetsAt: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(resetsAt),
  );

/**
 * What to say when the month's notes are used up: the allowance and its reset, when known. On a
 * server without payments (`serverLimit`) the allowance is the server's, set by whoever runs
 * it, and there is no upgrade to mention.
 */
export const notesLeftNotEnoughText = (
  i18n: ShellServices['i18n'],
  usage: UserUsage | undefined,
  { serverLimit = false } = {},
): string => {
  const limit = usage?.notes.limit;
  if (usage === undefined || limit === undefined || limit < 0) {
    return i18n.t(serverLimit ? 'quota.serverLimitReached' : 'quota.notesLeftNotEnough', {
      ns: 'shell',
    });
  }
  return i18n.t(serverLimit ? 'quota.serverAllows' : 'quota.planAllows', {
    ns: 'shell',
    count: limit,
    limit: new Intl.NumberFormat(i18n.language).format(limit),
    date: resetDay(usage.resetsAt, i18n.language),
  });
};

/**
 * The sticky notice after NOTES_LEFT_NOT_ENOUGH, saying what the plan allows and when the count
 * starts again (the usage asked for afresh: it has just changed), with Upgrade; on a server
 * without payments, that the limit is the server's, and nothing to buy.
 */
const offerMoreNotes = (services: QuotaServices) => {
  const show = (account: AccountState) => {
    const serverLimit = paymentsDisabledIn(account);
    services.toast(notesLeftNotEnoughText(services.i18n, account.usage, { serverLimit }), {
      type: 'warning',
      duration: 0,
      ...(serverLimit
        ? {}
        : {
            action: {
              label: services.i18n.t('quota.upgrade', { ns: 'shell' }),
              run: services.offerUpgrade,
            },
          }),
    });
  };
  services.account
    .refresh()
    .then(show, () => show({ ...services.account.get(), usage: undefined }));
};

/**
 * A payment route answered PAYMENTS_DISABLED: whatever the plan's status said before, this
 * server takes no payments, and every screen that reads the account stops offering them.
 */
const notePaymentsDisabled = (account: QuotaServices['account']) => {
  const { subscription } = account.get();
  if (subscription && (subscription.paymentsEnabled || account.get().subscriptionError)) {
    account.setSubscription({ ...subscription, paymentsEnabled: false });
  }
};

/**
 * The one API client of the page, shared by every remote: bearer token from the session, one
 * silent refresh and retry on 401, failures logged and re-thrown, and an upgrade offer when
 * the month's notes are used up.
 */
export const createShellApi = ({
  baseUrl,
  auth,
  services,
  fetch,
}: {
  baseUrl: string;
  auth: Pick<Auth, 'getToken' | 'refresh'>;
  services: QuotaServices;
  fetch?: typeof globalThis.fetch;
}): ApiClient =>
  createApiClient({
    baseUrl,
    getToken: auth.getToken,
    refresh: auth.refresh,
    fetch,
    onError: (error, request) => {
      log.warn(`${request.method} ${request.path} failed: ${error.code} ${error.message}`);
      // An import refused by the allowance says how many notes it needs where it was started.
      if (error.code === 'NOTES_LEFT_NOT_ENOUGH' && request.path !== routes.importFile.path) {
        offerMoreNotes(services);
      }
      if (error.code === 'PAYMENTS_DISABLED') notePaymentsDisabled(services.account);
    },
  });
