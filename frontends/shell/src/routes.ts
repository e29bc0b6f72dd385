import { matchPath } from '@noted/router';

/** The public page of a shared note: read without signing in, in the layout without sidebar. */
export const sharedNotePath = '/notes/s/:id';

/** The pages of the notes remote; it routes among them itself with its own <Routes>. */
export const notesPaths = [
  '/',
  '/notes/:id',
  '/todos',
  '/review',
  '/mindlink',
  '/chat',
  '/chat/:chatId',
  '/summaries',
  '/settings/ai',
] as const;

export const isNotesPage = (pathname: string): boolean =>
  notesPaths.some((path) => matchPath(path, pathname) !== null);

/** The feedback page: the marketing remote's form, in the layout with the sidebar. */
export const feedbackPath = '/feedback';

/** Where Stripe's checkout sends the browser back: the billing remote's pages, without sidebar. */
export const subscriptionPaths = {
  success: '/subscription/success',
  cancel: '/subscription/cancel',
} as const;
