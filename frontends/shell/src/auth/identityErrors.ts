/**
 * Why a sign-in did not end signed in, as a code the UI translates (`auth.notice.<code>`).
 * `sessionEnded` comes from a refused refresh; the rest from the provider's answer or the
 * identity flow of keycloak-js.
 */
export const authNotices = [
  'sessionEnded',
  'signInCancelled',
  'signInNeedsInteraction',
  'signInExpired',
  'providerUnavailable',
  'providerTimeout',
  'popupClosed',
  'crossOriginIsolated',
  'signInUnavailable',
  'signInFailed',
  'offline',
] as const;
export type AuthNotice = (typeof authNotices)[number];

/** The OAuth `error` of a provider answer (RFC 6749 4.1.2.1, OIDC Core 3.1.2.6). */
const byProviderError: Record<string, AuthNotice | null> = {
  // A silent session check for someone not signed in: not an error to show.
  login_required: null,
  access_denied: 'signInCancelled',
  interaction_required: 'signInNeedsInteraction',
  consent_required: 'signInNeedsInteraction',
  account_selection_required: 'signInNeedsInteraction',
  temporarily_unavailable: 'providerUnavailable',
  server_error: 'providerUnavailable',
};

/** What a provider's `error` parameter means to the user; undefined for nothing to say. */
export const noticeForProviderError = (error: string | null): AuthNotice | undefined => {
  if (error === null) return undefined;
  const known = byProviderError[error];
  if (known === null) return undefined;
  return known ?? 'signInFailed';
};

/**
 * Errors keycloak-js throws or rejects with: state_mismatch ('Invalid state'),
 * missing_transaction, missing_refresh_token, timeouts, closed or cancelled popups, and the
 * cross-origin-isolation restriction on silent checks.
 */
export const noticeForFlowError = (error: unknown): AuthNotice => {
  const text = (
    error instanceof Error
      ? `${error.name} ${error.message}`
      : typeof error === 'object' && error !== null && 'error' in error
        ? String(error.error)
        : String(error)
  ).toLowerCase();
  if (/invalid state|state_mismatch|missing_transaction/.test(text)) return 'signInExpired';
  if (/login_required|missing_refresh_token/.test(text)) return 'sessionEnded';
  if (/timeout|took longer/.test(text)) return 'providerTimeout';
  if (/popup.*(closed|cancel)|(closed|cancel).*popup/.test(text)) return 'popupClosed';
  if (/cross-origin|crossoriginisolated|coop/.test(text)) return 'crossOriginIsolated';
  return 'signInFailed';
};
