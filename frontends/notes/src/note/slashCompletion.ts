import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { EditorView } from '@codemirror/view';
import type { SlashCommand } from './editor';

/** A `/` at the start of the line or after a space, and the word typed after it. */
const SLASH_WORD = /(?:^|\s)\/([\p{L}\p{N}_-]*)$/u;

/** `/ai` (or any start of it) lists every command; other words find commands by their name. */
const matches = (command: SlashCommand, query: string) =>
  query === '' ||
  'ai'.startsWith(query) ||
  command.id.toLowerCase().includes(query) ||
  command.label.toLowerCase().includes(query);

/**
 * Offers the commands after a `/` typed at the start of a word; choosing one removes the `/`
 * and what followed it, then runs the command on the text and cursor as they are then.
 */
export const slashCommandCompletions =
  (commands: () => readonly SlashCommand[]) =>
  (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const before = context.state.sliceDoc(line.from, context.pos);
    const found = SLASH_WORD.exec(before);
    if (!found) return null;
    const query = (found[1] ?? '').toLowerCase();
    const slashAt = context.pos - query.length - 1;
    const options = commands()
      .filter((command) => matches(command, query))
      .map((command): Completion => ({
        label: command.label,
        type: 'keyword',
        ...(command.detail ? { detail: command.detail } : {}),
        apply: (view: EditorView, _completion: Completion, _from: number, to: number) => {
          view.dispatch({
            changes: { from: slashAt, to, insert: '' },
            selection: { anchor: slashAt },
            userEvent: 'delete.slash',
          });
          command.run({
            text: view.state.doc.toString(),
            selection: { from: slashAt, to: slashAt },
          });
        },
      }));
    if (options.length === 0) return null;
    // The commands are filtered here, by name or by /ai, not by CodeMirror's fuzzy match.
    return { from: slashAt + 1, options, filter: false };
  };
