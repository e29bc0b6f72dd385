import { ShellContext, type ShellServices } from '@noted/ui';
import { Suspense, lazy } from 'react';
import { Route, Routes, useLocation, useParams } from 'react-router';
import type { NotesApi } from './api';
import { NotesNav } from './NotesNav';
import { NotesPage } from './NotesPage';
import { ErrorBoundary } from './ErrorBoundary';
import './notes.css';

/** Props of the module exposed as './NotesApp'; the shell passes its ApiClient and services. */
export interface NotesAppProps {
  api: NotesApi;
  shell: ShellServices;
}

// Each page's code (the editor above all) is fetched when the page is first opened.
const NotePage = lazy(() => import('./note/NotePage').then((m) => ({ default: m.NotePage })));
const TodosPage = lazy(() => import('./todos/TodosPage').then((m) => ({ default: m.TodosPage })));
const ReviewPage = lazy(() =>
  import('./review/ReviewPage').then((m) => ({ default: m.ReviewPage })),
);
const MindMapPage = lazy(() =>
  import('./mindmap/MindMapPage').then((m) => ({ default: m.MindMapPage })),
);

// The navigation stays usable when a page's code cannot be loaded or the page crashes.
const pageFailed = (
  <div className="notes-error" role="alert">
    <p>This page could not be shown.</p>
    <button type="button" className="notes-button" onClick={() => window.location.reload()}>
      Reload
    </button>
  </div>
);

/** One note per mount: opening another note starts afresh (and saves the one left). */
function NoteRoute({ api }: { api: NotesApi }) {
  const { id = '' } = useParams();
  return <NotePage key={id} id={id} api={api} />;
}

/**
 * The signed-in app below the shell's header: its own sections, routed here. The shell hands
 * over `/`, `/notes/:id`, `/todos`, `/review` and `/mindlink`.
 */
export function NotesApp({ api, shell }: NotesAppProps) {
  const { pathname } = useLocation();
  return (
    <ShellContext.Provider value={shell}>
      <div className="notes-app">
        <NotesNav />
        <ErrorBoundary
          key={pathname}
          message="A page of the notes module failed."
          fallback={pageFailed}
        >
          <Suspense
            fallback={
              <p className="notes-status" role="status">
                Loading…
              </p>
            }
          >
            <Routes>
              <Route path="/" element={<NotesPage api={api} />} />
              <Route path="/notes/:id" element={<NoteRoute api={api} />} />
              <Route path="/todos" element={<TodosPage api={api} />} />
              <Route path="/review" element={<ReviewPage api={api} />} />
              <Route path="/mindlink" element={<MindMapPage api={api} />} />
            </Routes>
          </Suspense>
        </ErrorBoundary>
      </div>
    </ShellContext.Provider>
  );
}

export default NotesApp;
