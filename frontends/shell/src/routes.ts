import { matchPath } from 'react-router';

/** The public page of a shared note: read without signing in, in the layout without account. */
export const sharedNotePath = '/notes/s/:id';

/** The pages of the notes remote; it routes among them itself with its own <Routes>. */
export const notesPaths = ['/', '/notes/:id', '/todos', '/review', '/mindlink'] as const;

export const isNotesPage = (pathname: string): boolean =>
  notesPaths.some((path) => matchPath(path, pathname) !== null);
