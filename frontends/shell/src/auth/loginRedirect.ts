/** True for any answer of the provider, a sign-in or an error such as login_required. */
export const isProviderCallback = (url: URL): boolean =>
  url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));

const providerParams = ['code', 'state', 'session_state', 'iss', 'error', 'error_description'];

/**
 * Takes the provider's answer out of the address and stays on the page: a sign-in returns to
 * the root (login asks for it), a session check on /notes/:id returns to that note.
 */
export const dropProviderParams = (win: Window): void => {
  const url = new URL(win.location.href);
  for (const name of providerParams) url.searchParams.delete(name);
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
};
