import type { Note } from '@noted/api';
import { log } from '../log';
import { errorCode, errorMessage } from '../text';

/** What the note page edits and saves. */
export interface Draft {
  title: string;
  note: string;
  tags: string[];
}

export type SaveState =
  | { status: 'idle' }
  /** Changed, and saved in a moment. */
  | { status: 'pending' }
  | { status: 'saving' }
  | { status: 'saved' }
  /** `reason` is what the error said, empty when it said nothing. */
  | { status: 'failed'; reason: string; code?: string };

export interface AutosaveOptions {
  initial: Draft;
  /**
   * Sends the changed fields only, made on version `base` (an updatedAt; undefined means
   * overwrite); answers the stored note.
   */
  save: (patch: Partial<Draft>, base: string | undefined) => Promise<Note>;
  /** The version the editing starts from. */
  base?: string;
  onSaved?: (note: Note, patch: Partial<Draft>) => void;
  /** Quiet time after the last change before saving. */
  delayMs?: number;
  /** Longest a change waits while the typing goes on. */
  maxWaitMs?: number;
}

export interface Autosave {
  getState: () => SaveState;
  subscribe: (listener: () => void) => () => void;
  /** Takes the latest values; saves them after the quiet time. */
  change: (fields: Partial<Draft>) => void;
  /** Saves now, or right after the save in flight; settles when the latest values are saved. */
  flush: () => Promise<void>;
  /** Stops for good, unsaved changes dropped: the note was deleted. */
  close: () => void;
  /** Changes not saved yet, or a save in flight. */
  isDirty: () => boolean;
  /**
   * Edits are now made on this version: the note changed through another action on the page,
   * or (undefined) the user chose to overwrite what another tab or device saved.
   */
  rebase: (base: string | undefined) => void;
  /** A save is on its way to the server. */
  isSaving: () => boolean;
  /** The version edits are made on (undefined: overwrite), and the values being edited. */
  version: () => string | undefined;
  values: () => Draft;
  /**
   * Takes `values` as what the server holds at version `base` (another tab or device saved
   * them): nothing is left to save, and edits go on from there.
   */
  adopt: (values: Draft, base: string) => void;
}

const fields = ['title', 'note', 'tags'] as const;

const same = (a: Draft[keyof Draft], b: Draft[keyof Draft]) =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((value, index) => value === b[index])
    : a === b;

/**
 * Saves a note as it is edited: never two saves at once (one in flight, the latest values
 * next), only the fields that differ from what was last saved, and a failure keeps the values
 * for the next attempt.
 */
export const createAutosave = ({
  initial,
  save,
  onSaved,
  delayMs = 800,
  maxWaitMs = 5_000,
  base: initialBase,
}: AutosaveOptions): Autosave => {
  let base = initialBase;
  let current: Draft = { ...initial };
  // What the server holds as far as we know: the values sent, not the answer, so a value the
  // server normalises (a trimmed title) does not count as a change again and again.
  let saved: Draft = { ...initial };
  let state: SaveState = { status: 'idle' };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingSince: number | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const listeners = new Set<() => void>();

  const setState = (next: SaveState) => {
    state = next;
    for (const listener of listeners) listener();
  };

  const changes = (): Partial<Draft> => {
    const patch: Partial<Record<keyof Draft, unknown>> = {};
    for (const field of fields) {
      if (!same(current[field], saved[field])) patch[field] = current[field];
    }
    return patch as Partial<Draft>;
  };
  const hasChanges = () => Object.keys(changes()).length > 0;

  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
    waitingSince = undefined;
  };

  /** One save of whatever differs; false when it failed. */
  const saveOnce = async (): Promise<boolean> => {
    const patch = changes();
    if (Object.keys(patch).length === 0) {
      if (state.status !== 'idle') setState({ status: 'saved' });
      return true;
    }
    setState({ status: 'saving' });
    try {
      const note = await save(patch, base);
      base = note.updatedAt;
      saved = { ...saved, ...patch };
      onSaved?.(note, patch);
      return true;
    } catch (error) {
      log.warn('Saving the note failed.', error);
      const code = errorCode(error);
      setState({ status: 'failed', reason: errorMessage(error), ...(code ? { code } : {}) });
      return false;
    }
  };

  const flush = (): Promise<void> => {
    stopTimer();
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let ok: boolean;
      do {
        again = false;
        ok = await saveOnce();
      } while (ok && again);
      if (ok) setState(hasChanges() ? { status: 'pending' } : { status: 'saved' });
    })().finally(() => {
      running = undefined;
      // Listeners that wait for the save to have landed (isSaving) hear of it.
      for (const listener of listeners) listener();
    });
    return running;
  };

  const change = (next: Partial<Draft>) => {
    if (closed) return;
    current = { ...current, ...next };
    if (!hasChanges() && !running) {
      stopTimer();
      if (state.status !== 'idle') setState({ status: 'saved' });
      return;
    }
    if (state.status !== 'saving') setState({ status: 'pending' });
    const now = Date.now();
    waitingSince ??= now;
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), Math.min(delayMs, waitingSince + maxWaitMs - now));
  };

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change,
    flush,
    close: () => {
      closed = true;
      stopTimer();
      current = saved;
    },
    isDirty: () => hasChanges() || running !== undefined,
    rebase: (next) => {
      base = next;
    },
    isSaving: () => running !== undefined,
    version: () => base,
    values: () => ({ ...current }),
    adopt: (values, next) => {
      if (closed) return;
      stopTimer();
      current = { ...values };
      saved = { ...values };
      base = next;
      if (state.status !== 'idle') setState({ status: 'saved' });
    },
  };
};
