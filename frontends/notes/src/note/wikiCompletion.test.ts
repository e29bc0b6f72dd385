import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wikiLinkCompletions, wikiLinkInsertion } from './wikiCompletion';

const contextAt = (doc: string, explicit = false) =>
  new CompletionContext(EditorState.create({ doc }), doc.length, explicit);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('wikiLinkCompletions', () => {
  it('after [[ offers the titles found for what follows, once typing pauses', async () => {
    const findTitles = vi.fn(async () => ['Groceries', 'Grocery budget']);
    const source = wikiLinkCompletions(findTitles, 200);

    const result = source(contextAt('Buy [[gro'));
    await vi.advanceTimersByTimeAsync(199);
    expect(findTitles).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);

    const completions = await result;
    expect(findTitles).toHaveBeenCalledWith('gro', expect.any(AbortSignal));
    expect(completions?.from).toBe('Buy [['.length);
    expect(completions?.options.map((option) => option.label)).toEqual([
      'Groceries',
      'Grocery budget',
    ]);
  });

  it('asks with an empty query right after [[', async () => {
    const findTitles = vi.fn(async () => ['Recent']);
    const result = wikiLinkCompletions(findTitles, 200)(contextAt('[['));
    await vi.advanceTimersByTimeAsync(200);
    expect((await result)?.options).toHaveLength(1);
    expect(findTitles).toHaveBeenCalledWith('', expect.any(AbortSignal));
  });

  it('offers nothing outside an open [[', async () => {
    const findTitles = vi.fn(async () => ['Anything']);
    const source = wikiLinkCompletions(findTitles, 200);
    for (const doc of ['plain text', 'done [[Groceries]] ', '[single', '[[two\nlines', '[[a|b']) {
      expect(await source(contextAt(doc, true))).toBeNull();
    }
    expect(findTitles).not.toHaveBeenCalled();
  });

  it('cancels the lookup when typing goes on', async () => {
    let signal: AbortSignal | undefined;
    const findTitles = vi.fn(async (_query: string, given: AbortSignal) => {
      signal = given;
      return new Promise<string[]>(() => undefined);
    });
    const context = contextAt('[[gr');
    const aborts: (() => void)[] = [];
    vi.spyOn(context, 'addEventListener').mockImplementation((_type, listener) => {
      aborts.push(listener);
    });
    const result = wikiLinkCompletions(findTitles, 200)(context);

    await vi.advanceTimersByTimeAsync(200);
    for (const abort of aborts) abort();

    expect(await result).toBeNull();
    expect(signal?.aborted).toBe(true);
  });

  it('does not even look up when typing goes on during the pause', async () => {
    const findTitles = vi.fn(async () => ['Never']);
    const context = contextAt('[[gr');
    const aborts: (() => void)[] = [];
    vi.spyOn(context, 'addEventListener').mockImplementation((_type, listener) => {
      aborts.push(listener);
    });
    const result = wikiLinkCompletions(findTitles, 200)(context);

    await vi.advanceTimersByTimeAsync(100);
    for (const abort of aborts) abort();
    await vi.advanceTimersByTimeAsync(200);

    expect(await result).toBeNull();
    expect(findTitles).not.toHaveBeenCalled();
  });
});

describe('wikiLinkInsertion', () => {
  const apply = (doc: string, from: number, to: number, title: string) => {
    const state = EditorState.create({ doc });
    const next = state.update(wikiLinkInsertion(state, title, from, to)).state;
    return { doc: next.doc.toString(), cursor: next.selection.main.head };
  };

  it('writes [[Title]] in place of what was typed and puts the cursor after it', () => {
    expect(apply('See [[gro and more', 6, 9, 'Groceries')).toEqual({
      doc: 'See [[Groceries]] and more',
      cursor: 'See [[Groceries]]'.length,
    });
  });

  it('does not double a closing ]] already there', () => {
    expect(apply('See [[gro]]', 6, 9, 'Groceries').doc).toBe('See [[Groceries]]');
  });
});
