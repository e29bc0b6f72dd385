import { createApiClient, routes, type ApiClient, type UserUsage } from '@noted/api';
import type { ShellServices } from '@noted/ui';
import type { Auth } from './auth/auth';
import { log } from './log';

type QuotaServices = Pick<ShellServices, 'toast' | 'offerUpgrade' | 'i18n' | 'account'>;

/** The day the monthly count starts again, as the page's language writes it (a UTC month). */
const resetDay = (resetsAt: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(resetsAt),
  );

/** What to say when the month's notes are used up: the allowance and its reset, when known. */
export const notesLeftNotEnoughText = (
  i18n: ShellServices['i18n'],
  usage: UserUsage | undefined,
): string => {
  const limit = usage?.notes.limit;
  if (usage === undefined || limit === undefined || limit < 0) {
    return i18n.t('quota.notesLeftNotEnough', { ns: 'shell' });
  }
  return i18n.t('quota.planAllows', {
    ns: 'shell',
    count: limit,
    limit: new Intl.NumberFormat(i18n.language).format(limit),
    date: resetDay(usage.resetsAt, i18n.language),
  });
};

/**
 * The sticky upgrade offer after NOTES_LEFT_NOT_ENOUGH, saying what the plan allows and when
 * the count starts again (the usage asked for afresh: it has just changed).
 */
const offerMoreNotes = (services: QuotaServices) => {
  const show = (usage: UserUsage | undefined) =>
    services.toast(notesLeftNotEnoughText(services.i18n, usage), {
      type: 'warning',
      duration: 0,
      action: {
        label: services.i18n.t('quota.upgrade', { ns: 'shell' }),
        run: services.offerUpgrade,
      },
    });
  services.account.refresh().then(
    (account) => show(account.usage),
    () => show(undefined),
  );
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
    },
  });
