import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete';
import type { EditorState, TransactionSpec } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { log } from '../log';
import type { FindTitles } from './editor';

/** Quiet time after a keystroke before the titles are looked up. */
export const WIKI_LOOKUP_DELAY_MS = 200;

/** An unclosed `[[` before the cursor and what was typed after it on the same line. */
const OPEN_WIKI_LINK = /\[\[[^[\]|\n]*$/;

/**
 * Replaces what was typed after `[[` (from..to) with `Title]]`, over a `]]` that is already
 * there, and puts the cursor after the link.
 */
export const wikiLinkInsertion = (
  state: EditorState,
  title: string,
  from: number,
  to: number,
): TransactionSpec => {
  const end = state.sliceDoc(to, to + 2) === ']]' ? to + 2 : to;
  const insert = `${title}]]`;
  return {
    changes: { from, to: end, insert },
    selection: { anchor: from + insert.length },
    userEvent: 'input.complete',
  };
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects once `signal` aborts, so waiting on anything ends with the lookup. */
const abortion = (signal: AbortSignal) => {
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new Error('The lookup was cancelled')), {
      once: true,
    });
  });
  aborted.catch(() => undefined);
  return aborted;
};

/**
 * Completes `[[` with the titles of the user's notes that match what follows it, each with
 * what `detail` says beside it. Each lookup waits for a pause in typing and is cancelled by the next
 * keystroke.
 */
export const wikiLinkCompletions =
  (
    findTitles: FindTitles,
    delayMs = WIKI_LOOKUP_DELAY_MS,
    detail?: () => string | undefined,
  ): CompletionSource =>
  async (context: CompletionContext): Promise<CompletionResult | null> => {
    const open = context.matchBefore(OPEN_WIKI_LINK);
    if (!open) return null;
    const controller = new AbortController();
    context.addEventListener('abort', () => controller.abort(), { onDocChange: true });
    const aborted = abortion(controller.signal);
    try {
      await Promise.race([delay(delayMs), aborted]);
      const titles = await Promise.race([
        findTitles(open.text.slice(2).trim(), controller.signal),
        aborted,
      ]);
      if (context.aborted) return null;
      const described = detail?.();
      return {
        from: open.from + 2,
        options: titles.map((title): Completion => ({
          label: title,
          type: 'text',
          ...(described ? { detail: described } : {}),
          apply: (view: EditorView, _completion: Completion, from: number, to: number) =>
            view.dispatch(wikiLinkInsertion(view.state, title, from, to)),
        })),
      };
    } catch (error) {
      if (!controller.signal.aborted) log.warn('Looking up note titles failed.', error);
      return null;
    }
  };
