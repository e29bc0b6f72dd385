import { Suspense, createContext, lazy, useContext } from 'react';
import type { ReactNode } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import { Loading } from '../LoadStatus';
import { useNotesMessages } from '../messages';

/** Finds the titles of notes whose title matches `query`, for `[[` completion. */
export type FindTitles = (query: string, signal: AbortSignal) => Promise<string[]>;

/** What the note page needs of a Markdown editor; CodeMirror in the app. */
export interface MarkdownEditorProps {
  /** The id of the visible label. */
  labelId: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  findTitles: FindTitles;
  /** Shown beside each title offered after `[[`, saying what it is. */
  titleSuggestionLabel?: string;
}

/** A plain text area: what the page shows while CodeMirror cannot be loaded. */
export function TextareaEditor({ labelId, value, onChange, onBlur }: MarkdownEditorProps) {
  return (
    <textarea
      className="note-textarea"
      aria-labelledby={labelId}
      value={value}
      rows={16}
      spellCheck
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

const CodeMirrorEditor = lazy(() => import('./CodeMirrorEditor'));

/** CodeMirror 6, fetched only when a note is opened. */
export function LazyCodeMirrorEditor(props: MarkdownEditorProps) {
  const { t } = useNotesMessages('note');
  return (
    // If the editor's code cannot be loaded, the note stays editable as plain text.
    <ErrorBoundary
      message="The Markdown editor could not be loaded; editing as plain text."
      fallback={<TextareaEditor {...props} />}
    >
      <Suspense fallback={<Loading>{t('editor.loading')}</Loading>}>
        <CodeMirrorEditor {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}

type RenderEditor = (props: MarkdownEditorProps) => ReactNode;

/** Draws the editor the note page uses; tests put the text area in CodeMirror's place. */
export const MarkdownEditorContext = createContext<RenderEditor>((props) => (
  <LazyCodeMirrorEditor {...props} />
));

/** The Markdown editor in use: CodeMirror unless the context says otherwise. */
export function MarkdownEditor(props: MarkdownEditorProps) {
  return useContext(MarkdownEditorContext)(props);
}
