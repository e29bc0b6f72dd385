import type { Note } from '@noted/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeNote } from '../testing';
import { createAutosave, type Draft } from './autosave';

const initial: Draft = { title: 'Plan', note: 'First line', tags: ['work'] };

/** A save whose answers the test hands out one by one. */
const controlledSave = () => {
  const pending: {
    patch: Partial<Draft>;
    resolve: (note: Note) => void;
    reject: (e: Error) => void;
  }[] = [];
  const save = vi.fn(
    (patch: Partial<Draft>) =>
      new Promise<Note>((resolve, reject) => pending.push({ patch, resolve, reject })),
  );
  const answer = async (outcome: 'ok' | Error = 'ok') => {
    const next = pending.shift();
    if (!next) throw new Error('no save in flight');
    if (outcome === 'ok') next.resolve(makeNote({ ...next.patch }));
    else next.reject(outcome);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { save, answer, inFlight: () => pending.length };
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createAutosave', () => {
  it('saves 800 ms after the last change, only the fields that changed', async () => {
    const { save, answer } = controlledSave();
    const autosave = createAutosave({ initial, save });

    autosave.change({ note: 'First line.' });
    await vi.advanceTimersByTimeAsync(500);
    autosave.change({ note: 'First line. Second' });
    expect(autosave.getState()).toEqual({ status: 'pending' });
    await vi.advanceTimersByTimeAsync(799);
    expect(save).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledExactlyOnceWith({ note: 'First line. Second' }, undefined);
    expect(autosave.getState()).toEqual({ status: 'saving' });
    await answer();
    expect(autosave.getState()).toEqual({ status: 'saved' });
    expect(autosave.isDirty()).toBe(false);
  });

  it('never runs two saves at once: changes made meanwhile go in one save after it', async () => {
    const { save, answer, inFlight } = controlledSave();
    const onSaved = vi.fn();
    const autosave = createAutosave({ initial, save, onSaved });

    autosave.change({ title: 'Plan B' });
    await vi.advanceTimersByTimeAsync(800);
    autosave.change({ note: 'Changed while saving' });
    await vi.advanceTimersByTimeAsync(800);
    const flushed = autosave.flush();
    autosave.change({ note: 'Changed again', tags: ['work', 'later'] });
    void autosave.flush();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(inFlight()).toBe(1);
    expect(save).toHaveBeenCalledTimes(1);

    await answer();
    expect(save).toHaveBeenCalledTimes(2);
    // Made on the version the first save answered.
    expect(save).toHaveBeenLastCalledWith(
      { note: 'Changed again', tags: ['work', 'later'] },
      expect.any(String),
    );
    expect(autosave.getState()).toEqual({ status: 'saving' });

    await answer();
    await flushed;
    expect(save).toHaveBeenCalledTimes(2);
    expect(onSaved).toHaveBeenCalledTimes(2);
    expect(autosave.getState()).toEqual({ status: 'saved' });
  });

  it('keeps the values after a failure and saves them on retry', async () => {
    const { save, answer } = controlledSave();
    const autosave = createAutosave({ initial, save });

    autosave.change({ note: 'Precious words' });
    await vi.advanceTimersByTimeAsync(800);
    await answer(new Error('The notes service is unavailable'));
    expect(autosave.getState()).toEqual({
      status: 'failed',
      reason: 'The notes service is unavailable',
    });
    expect(autosave.isDirty()).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(1);

    void autosave.flush();
    expect(save).toHaveBeenLastCalledWith({ note: 'Precious words' }, undefined);
    await answer();
    expect(autosave.getState()).toEqual({ status: 'saved' });
  });

  it('saves at least every 5 s while the typing goes on', async () => {
    const { save } = controlledSave();
    const autosave = createAutosave({ initial, save });

    for (let typed = 1; typed <= 12; typed += 1) {
      autosave.change({ note: 'x'.repeat(typed) });
      await vi.advanceTimersByTimeAsync(500);
    }

    // The first change came at 0 ms: the one at 4,500 ms is saved at 5,000 ms.
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]?.[0].note?.length).toBe(10);
  });

  it('does not count what the server normalised as a change', async () => {
    const save = vi.fn(async (patch: Partial<Draft>) =>
      makeNote({ title: patch.title?.trim() ?? initial.title }),
    );
    const autosave = createAutosave({ initial, save });

    autosave.change({ title: 'Plan ' });
    await vi.advanceTimersByTimeAsync(800);
    autosave.change({ note: 'More' });
    await vi.advanceTimersByTimeAsync(800);

    expect(save.mock.calls.map(([patch]) => patch)).toEqual([{ title: 'Plan ' }, { note: 'More' }]);
  });

  it('sends nothing when a change is undone before the save', async () => {
    const { save } = controlledSave();
    const autosave = createAutosave({ initial, save });

    autosave.change({ tags: ['work', 'x'] });
    autosave.change({ tags: ['work'] });
    await autosave.flush();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(save).not.toHaveBeenCalled();
    expect(autosave.getState()).toEqual({ status: 'saved' });
  });

  it('drops unsaved changes once closed (the note was deleted)', async () => {
    const { save } = controlledSave();
    const autosave = createAutosave({ initial, save });

    autosave.change({ note: 'Gone with the note' });
    autosave.close();
    await autosave.flush();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(save).not.toHaveBeenCalled();
    expect(autosave.isDirty()).toBe(false);
  });

  it('names the version each save is made on: given, then answered, then set by the page', async () => {
    let version = 0;
    const save = vi.fn(async (patch: Partial<Draft>, _base: string | undefined) =>
      makeNote({ ...patch, updatedAt: `v${++version}` }),
    );
    const autosave = createAutosave({ initial, save, base: 'v0' });
    const edit = async (title: string) => {
      autosave.change({ title });
      await autosave.flush();
    };

    await edit('A');
    expect(save).toHaveBeenLastCalledWith({ title: 'A' }, 'v0');
    await edit('B');
    expect(save).toHaveBeenLastCalledWith({ title: 'B' }, 'v1');
    autosave.rebase('v9');
    await edit('C');
    expect(save).toHaveBeenLastCalledWith({ title: 'C' }, 'v9');
    autosave.rebase(undefined);
    await edit('D');
    expect(save).toHaveBeenLastCalledWith({ title: 'D' }, undefined);
  });
});
