import { createApiClient, type ApiClient } from '@noted/api';
import type { ShellServices } from '@noted/ui';
import type { Auth } from './auth/auth';
import { log } from './log';

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
  services: Pick<ShellServices, 'toast' | 'offerUpgrade' | 'i18n'>;
  fetch?: typeof globalThis.fetch;
}): ApiClient =>
  createApiClient({
    baseUrl,
    getToken: auth.getToken,
    refresh: auth.refresh,
    fetch,
    onError: (error, request) => {
      log.warn(`${request.method} ${request.path} failed: ${error.code} ${error.message}`);
      if (error.code !== 'NOTES_LEFT_NOT_ENOUGH') return;
      const { t } = services.i18n;
      services.toast(t('quota.notesLeftNotEnough', { ns: 'shell' }), {
        type: 'warning',
        duration: 0,
        action: { label: t('quota.upgrade', { ns: 'shell' }), run: services.offerUpgrade },
      });
    },
  });
