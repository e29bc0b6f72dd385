/**
 * The app's page addresses, in one place: the shell routes them to their remotes, and the gateway
 * answers them with the app (any other page path is the site's, or a real 404). A `:name`
 * segment matches any one segment; a trailing `?` makes it optional.
 */

/** The public page of a shared note: read without signing in, in the layout without sidebar. */
export const sharedNotePath = '/notes/s/:id';

/** The pages of the notes remote; it routes among them itself with its own <Routes>. */
export const notesPaths = [
  '/',
  '/notes/:id',
  '/todos',
  '/review',
  '/mindlink',
  '/chat/:chatId?',
  '/summaries',
  '/settings/ai',
] as const;

/** The feedback page: the marketing remote's form, in the layout with the sidebar. */
export const feedbackPath = '/feedback';

/** Where Stripe's checkout sends the browser back: the billing remote's pages, without sidebar. */
export const subscriptionPaths = {
  success: '/subscription/success',
  cancel: '/subscription/cancel',
} as const;

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * Whether `pathname` is the page `pattern` names: as the shell's router matches, a trailing slash
 * is the same page and letters match in either case.
 */
export const matchesPage = (pattern: string, pathname: string): boolean => {
  const wanted = segments(pattern);
  const given = segments(pathname);
  if (given.length > wanted.length) return false;
  return wanted.every((part, i) => {
    const value = given[i];
    if (part.endsWith('?')) return i >= given.length || value !== undefined;
    if (value === undefined) return false;
    return part.startsWith(':') || part.toLowerCase() === value.toLowerCase();
  });
};

export const isNotesPage = (pathname: string): boolean =>
  notesPaths.some((pattern) => matchesPage(pattern, pathname));

/** Every page the app (rather than the site) shows. */
export const isAppPage = (pathname: string): boolean =>
  isNotesPage(pathname) ||
  [sharedNotePath, feedbackPath, subscriptionPaths.success, subscriptionPaths.cancel].some(
    (pattern) => matchesPage(pattern, pathname),
  );
