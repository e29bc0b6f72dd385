import { matchPath } from '@noted/router';
import type { ComingPageName } from './pages/ComingPage';

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

/**
 * Routes of the spec whose remote (marketing) is not built yet: each shows a real
 * "coming" page in the layout the spec gives it.
 */
export const comingRoutes: { path: string; page: ComingPageName; sidebar: boolean }[] = [
  { path: '/landing', page: 'landing', sidebar: false },
  { path: '/guide', page: 'guide', sidebar: false },
  { path: '/blog', page: 'blog', sidebar: false },
  { path: '/blog/*', page: 'article', sidebar: false },
  { path: '/feedback', page: 'feedback', sidebar: true },
];

/** Where Stripe's checkout sends the browser back: the billing remote's pages, without sidebar. */
export const subscriptionPaths = {
  success: '/subscription/success',
  cancel: '/subscription/cancel',
} as const;
