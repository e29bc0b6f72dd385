import { Suspense, createContext, lazy, useContext } from 'react';
import type { ReactNode, SyntheticEvent } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import { Loading } from '../LoadStatus';
import { useNotesMessages } from '../messages';

/** Finds the titles of notes whose title matches `query`, for `[[` completion. */
export type FindTitles = (query: string, signal: AbortSignal) => Promise<string[]>;

/** The selected range as offsets into the text; `from === to` is a cursor. */
export interface EditorSelection {
  from: number;
  to: number;
}

/** Where the selection ends on screen (viewport pixels), for a toolbar beside it. */
export interface ScreenPoint {
  left: number;
  top: number;
  bottom: number;
}

/** The text and selection a `/` command runs on, after what was typed for it is removed. */
export interface CommandContext {
  text: string;
  selection: EditorSelection;
}

/** An entry of the `/` menu, offered when `/` is typed at the start of a word. */
export interface SlashCommand {
  id: string;
  label: string;
  /** Shown beside the label, e.g. what kind of command it is. */
  detail?: string;
  run: (context: CommandContext) => void;
}

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
  /** Told where the selection or cursor is whenever it moves, and where it is on screen if known. */
  onSelectionChange?: (selection: EditorSelection, point?: ScreenPoint) => void;
  slashCommands?: readonly SlashCommand[];
}

/**
 * A plain text area: what the page shows while CodeMirror cannot be loaded. It has no `/` menu;
 * the AI writer is reached by its button there.
 */
export function TextareaEditor({
  labelId,
  value,
  onChange,
  onBlur,
  onSelectionChange,
}: MarkdownEditorProps) {
  const report = (event: SyntheticEvent<HTMLTextAreaElement>) => {
    const { selectionStart, selectionEnd } = event.currentTarget;
    onSelectionChange?.({ from: selectionStart, to: selectionEnd });
  };
  return (
    <textarea
      className="note-textarea"
      aria-labelledby={labelId}
      value={value}
      rows={16}
      spellCheck
      onChange={(event) => {
        onChange(event.target.value);
        report(event);
      }}
      onSelect={report}
      onKeyUp={report}
      onMouseUp={report}
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
