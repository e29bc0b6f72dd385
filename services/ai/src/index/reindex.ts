import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '@noted/kit';
import { notesStillThere, type NotesClient } from '../notes-client.js';
import { noteForIndex, type Indexer } from './indexer.js';
import { indexMetrics } from './metrics.js';
import { indexRepository } from './repository.js';

export interface ReindexProgress {
  id: string;
  state: 'idle' | 'running' | 'finished' | 'failed';
  done: number;
  total: number;
  error: string;
}

/** Notes read and indexed per step: bounds the memory a reindex holds at once. */
const PAGE = 200;

/** Every note (of every user, or of one), page by page in id order. */
async function* notesOf(notes: NotesClient, userId: string | undefined, page: number) {
  let afterId = '';
  for (;;) {
    const { notes: found, total } = await notes.scan(afterId, page, userId);
    yield { notes: found, total };
    const last = found.at(-1);
    if (!last || found.length < page) return;
    afterId = last.id;
  }
}

/**
 * Rebuilds the index from the notes service (all users, or one), one reindex at a time per
 * process, while note events keep arriving: a page written over a newer version changes
 * nothing, and a note deleted since its page was read stays deleted. Notes the index holds that
 * the scan did not meet are read again at the end: those the notes service no longer has are
 * forgotten (a delete event that was given up), the others were created behind the scan while
 * it ran and are kept.
 */
export const createReindexer = (deps: {
  knex: Knex;
  notes: NotesClient;
  indexer: Indexer;
  logger: Logger;
  /** Notes read and indexed per step (tests make it small). */
  page?: number;
}) => {
  let progress: ReindexProgress = { id: '', state: 'idle', done: 0, total: 0, error: '' };
  let running: Promise<void> | undefined;

  const run = async (userId: string | undefined) => {
    const seen = new Set<string>();
    for await (const { notes, total } of notesOf(deps.notes, userId, deps.page ?? PAGE)) {
      progress.total = total;
      await deps.indexer.index(notes.map(noteForIndex), { force: true });
      for (const note of notes) seen.add(note.id);
      progress.done += notes.length;
      deps.logger.info({ done: progress.done, total }, 'reindexing');
    }
    const unseen = (await indexRepository.liveNotes(deps.knex, userId)).filter(
      (note) => !seen.has(note.noteId),
    );
    const found = await notesStillThere(deps.notes, unseen);
    await deps.indexer.index(found.map(noteForIndex));
    const kept = new Set(found.map((note) => note.id));
    await deps.indexer.remove(unseen.filter((note) => !kept.has(note.noteId)));
  };

  return {
    progress: (): ReindexProgress => ({ ...progress }),
    start: (userId?: string): ReindexProgress => {
      if (running) return { ...progress };
      progress = { id: randomUUID(), state: 'running', done: 0, total: 0, error: '' };
      running = run(userId)
        .then(() => {
          progress.state = 'finished';
        })
        .catch((error: unknown) => {
          deps.logger.error({ err: error }, 'reindex failed');
          progress.state = 'failed';
          progress.error = error instanceof Error ? error.message : String(error);
        })
        .finally(() => {
          running = undefined;
        });
      return { ...progress };
    },
    /** Waits for the reindex running, if any (for stopping, and for tests). */
    settled: () => running ?? Promise.resolve(),
  };
};

export type Reindexer = ReturnType<typeof createReindexer>;

/**
 * Repairs the index in the background: notes whose chunks are of another embedding model
 * (after the model changed) and notes left waiting while the provider was down are embedded
 * again, a batch at a time, then again every `intervalMs`. Search keeps working meanwhile:
 * words (BM25) find every note, meaning finds those already embedded with the current model.
 */
export const startIndexRepair = (deps: {
  knex: Knex;
  notes: NotesClient;
  indexer: Indexer;
  logger: Logger;
  batch?: number;
  intervalMs?: number;
}) => {
  const batch = deps.batch ?? 100;
  let stopped = false;
  let wake: (() => void) | undefined;
  // A stop does not wait for a batch being embedded (a hundred long notes take a while): it is
  // dropped between the model's batches, and embedded again at the next start.
  const stopping = new AbortController();

  /** Embeds waiting notes until none are left or the provider still cannot embed them. */
  const drain = async () => {
    while (!stopped) {
      const stale = await indexRepository.staleNotes(deps.knex, deps.indexer.model(), batch);
      indexMetrics.pendingNotes.set(stale.length);
      if (stale.length === 0) return;
      const found = await notesStillThere(deps.notes, stale);
      const outcome = await deps.indexer.index(found.map(noteForIndex), {
        force: true,
        signal: stopping.signal,
      });
      const kept = new Set(found.map((note) => note.id));
      await deps.indexer.remove(stale.filter((row) => !kept.has(row.noteId)));
      deps.logger.info({ notes: stale.length, ...outcome }, 'repaired the AI index');
      if (outcome.pending > 0) return;
    }
  };

  const done = (async () => {
    while (!stopped) {
      await drain().catch((error: unknown) => {
        if (stopped) return;
        deps.logger.error({ err: error }, 'repairing the AI index failed; trying again later');
      });
      // Checked again: a stop that came while draining must not wait out the interval.
      if (stopped) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.intervalMs ?? 60_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      stopping.abort();
      wake?.();
      await done;
    },
  };
};
