import {
  Button,
  Callout,
  RefreshIcon,
  ShellContext,
  useLiveMessages,
  useLiveReconnect,
  useShell,
  type ShellServices,
} from '@noted/ui';
import { Suspense, lazy, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes, useLocation, useParams } from '@noted/router';
import type { NotesApi } from './api';
import { ErrorBoundary } from './ErrorBoundary';
import { Loading } from './LoadStatus';
import { useNotesMessages } from './messages';
import { NotesPage } from './NotesPage';
import { reviewStore, useReviewNew } from './review/store';
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
const ChatPage = lazy(() => import('./ai/chat/ChatPage').then((m) => ({ default: m.ChatPage })));
const SummariesPage = lazy(() =>
  import('./ai/summaries/SummariesPage').then((m) => ({ default: m.SummariesPage })),
);
const AiSettingsPage = lazy(() =>
  import('./ai/settings/AiSettingsPage').then((m) => ({ default: m.AiSettingsPage })),
);

/**
 * Each page starts afresh after a failure, except the chat: a new conversation moves from
 * /chat to /chat/<id> while its answer is still streaming in.
 */
const pageKey = (pathname: string) => (pathname.startsWith('/chat/') ? '/chat' : pathname);

// The navigation stays usable when a page's code cannot be loaded or the page crashes.
function PageFailed() {
  const { t } = useNotesMessages('note');
  return (
    <Callout
      tone="danger"
      role="alert"
      actions={
        <Button size="sm" icon={RefreshIcon} onClick={() => window.location.reload()}>
          {t('app.reload')}
        </Button>
      }
    >
      {t('app.pageFailed')}
    </Callout>
  );
}

/** Marks Review in the shell's navigation while notes to review came in unseen. */
function ReviewBadge() {
  const { t } = useNotesMessages('note');
  const shell = useShell();
  const reviewNew = useReviewNew();
  const badge = reviewNew ? t('nav.new') : undefined;
  useEffect(() => {
    shell.setNavBadge('/review', badge);
  }, [shell, badge]);
  useEffect(() => () => shell.setNavBadge('/review', undefined), [shell]);
  return null;
}

/**
 * The review list as the live connection changes it: notes that fell due come first with the
 * new flag, a deleted note leaves, and after the connection was down the list asks again.
 */
function LiveReview({ api }: { api: NotesApi }) {
  useLiveMessages((message) => {
    if (message.type === 'noteReview') reviewStore.receive(message.notes);
    else if (message.type === 'noteDeleted') reviewStore.remove(message.noteId);
  });
  useLiveReconnect(() => void reviewStore.check(api));
  return null;
}

/** One note per mount: opening another note starts afresh (and saves the one left). */
function NoteRoute({ api }: { api: NotesApi }) {
  const { id = '' } = useParams();
  return <NotePage key={id} id={id} api={api} />;
}

function NotesSections({ api }: { api: NotesApi }) {
  const { t } = useNotesMessages('note');
  const { pathname } = useLocation();
  return (
    <div className="notes-app">
      <ReviewBadge />
      <LiveReview api={api} />
      <ErrorBoundary
        key={pageKey(pathname)}
        message="A page of the notes module failed."
        fallback={<PageFailed />}
      >
        <Suspense fallback={<Loading blocks={2}>{t('common.loading')}</Loading>}>
          <Routes>
            <Route path="/" element={<NotesPage api={api} />} />
            <Route path="/notes/:id" element={<NoteRoute api={api} />} />
            <Route path="/todos" element={<TodosPage api={api} />} />
            <Route path="/review" element={<ReviewPage api={api} />} />
            <Route path="/mindlink" element={<MindMapPage api={api} />} />
            <Route path="/chat/:chatId?" element={<ChatPage api={api} />} />
            <Route path="/summaries" element={<SummariesPage api={api} />} />
            <Route path="/settings/ai" element={<AiSettingsPage api={api} />} />
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </div>
  );
}

/**
 * The signed-in app below the shell's header: its own sections, routed here. The shell hands
 * over `/`, `/notes/:id`, `/todos`, `/review`, `/mindlink`, `/chat`, `/chat/:chatId`,
 * `/summaries` and `/settings/ai` (not `/ai`: the gateway forwards that to the API).
 */
export function NotesApp({ api, shell }: NotesAppProps) {
  return (
    // The shell's i18n instance, given here rather than trusted to come through the context
    // of the host's copy of react-i18next.
    <I18nextProvider i18n={shell.i18n}>
      <ShellContext.Provider value={shell}>
        {/* Until the notes words have come (one small file) there is nothing to say. */}
        <Suspense fallback={null}>
          <NotesSections api={api} />
        </Suspense>
      </ShellContext.Provider>
    </I18nextProvider>
  );
}

export default NotesApp;
