import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext, SlashCommand } from './editor';
import { slashCommandCompletions } from './slashCompletion';

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

const command = (id: string, label: string, run = vi.fn()): SlashCommand => ({ id, label, run });
const commands = [command('continue', 'Continue'), command('rewrite', 'Rewrite')];

const contextAt = (doc: string) =>
  new CompletionContext(EditorState.create({ doc }), doc.length, false);

const labels = (doc: string) => slashCommandCompletions(() => commands)(contextAt(doc));

describe('slashCommandCompletions', () => {
  it('offers every command after a / at the start of a line or a word, and after /ai', () => {
    for (const doc of ['/', 'Some text /', 'Line\n/', '/ai', '/a']) {
      expect(
        labels(doc)?.options.map((option) => option.label),
        doc,
      ).toEqual(['Continue', 'Rewrite']);
    }
  });

  it('finds a command by what is typed after the /', () => {
    expect(labels('/rew')?.options.map((option) => option.label)).toEqual(['Rewrite']);
    expect(labels('/nothing')).toBeNull();
  });

  it('stays out of addresses, paths and fractions', () => {
    for (const doc of ['https://example.com/', 'and/or', '1/2'])
      expect(labels(doc), doc).toBeNull();
  });

  it('removes what was typed for the command, then runs it at that spot', () => {
    const run = vi.fn<(context: CommandContext) => void>();
    const doc = 'Hello /rew';
    const view = new EditorView({ doc, parent: document.body });
    views.push(view);
    const result = slashCommandCompletions(() => [command('rewrite', 'Rewrite', run)])(
      new CompletionContext(view.state, doc.length, false),
    );
    const option = result?.options[0];
    if (!result || typeof option?.apply !== 'function') throw new Error('No command offered');

    option.apply(view, option, result.from, doc.length);

    expect(view.state.doc.toString()).toBe('Hello ');
    expect(run).toHaveBeenCalledWith({ text: 'Hello ', selection: { from: 6, to: 6 } });
  });
});
