/** True when the address is the provider's redirect back after a sign-in (spec section 2). */
export const carriesLoginCode = (url: URL): boolean =>
  url.searchParams.has('code') && url.searchParams.has('state');

/** True for any answer of the provider, a sign-in or an error such as login_required. */
export const isProviderCallback = (url: URL): boolean =>
  url.searchParams.has('state') && (url.searchParams.has('code') || url.searchParams.has('error'));

export const rewriteAddressToRoot = (win: Window): void => {
  win.history.replaceState(win.history.state, '', '/');
};
