import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '@noted/kit';
import type { notesV1 } from '@noted/proto';
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

interface ScanPage {
  notes: notesV1.Note[];
  total: number;
}

/** Notes read and indexed per step: bounds the memory a reindex holds at once. */
const PAGE = 200;

/**
 * How far past its start a rebuild's scan reaches: notes changed later are left to their
 * events, so writes during the rebuild do not lengthen it. The margin covers notes replicas
 * whose clocks run a little ahead of this one's.
 */
const HIGH_WATER_MARGIN_MS = 10_000;

/**
 * Rebuilds the index from the notes service (all users, or one), one reindex at a time per
 * process, while note events keep arriving. The scan pages through the notes in id order up
 * to a high-water mark: the notes last changed before the rebuild began (a fixed set, so it
 * ends however fast notes are written); later changes reach the index through their events,
 * which go first (the rebuild embeds in the background). A page written over a newer version
 * changes nothing, a note indexed just as the page has it is left alone, and a note deleted
 * since its page was read stays deleted. The notes the index holds within a page's id range
 * that the page did not have are read again: those the notes service no longer has are
 * forgotten (a delete event that was given up), the others (written since) are kept.
 */
export const createReindexer = (deps: {
  knex: Knex;
  notes: NotesClient;
  indexer: Indexer;
  logger: Logger;
  /** Notes read and indexed per step (tests make it small). */
  page?: number;
  /** How far past its start the scan reaches (HIGH_WATER_MARGIN_MS; tests make it 0). */
  highWaterMarginMs?: number;
}) => {
  const page = deps.page ?? PAGE;
  const margin = deps.highWaterMarginMs ?? HIGH_WATER_MARGIN_MS;
  let progress: ReindexProgress = { id: '', state: 'idle', done: 0, total: 0, error: '' };
  let running: Promise<void> | undefined;
  let stopping: AbortController | undefined;

  /** Reads again the notes the index holds in (afterId, upTo] that the page did not have. */
  const checkUnseen = async (
    range: { afterId: string; upTo?: string; userId?: string },
    seen: Set<string>,
    signal: AbortSignal,
  ) => {
    const unseen = (await indexRepository.liveNotesBetween(deps.knex, range)).filter(
      (note) => !seen.has(note.noteId),
    );
    if (unseen.length === 0) return;
    const found = await notesStillThere(deps.notes, unseen);
    await deps.indexer.index(found.map(noteForIndex), { background: true, signal });
    const kept = new Set(found.map((note) => note.id));
    await deps.indexer.remove(unseen.filter((note) => !kept.has(note.noteId)));
  };

  const run = async (userId: string | undefined, signal: AbortSignal) => {
    const updatedBefore = new Date(Date.now() + margin);
    const read = (afterId: string): Promise<ScanPage> =>
      deps.notes.scan(afterId, page, userId, { updatedBefore, skipTotal: afterId !== '' });
    let afterId = '';
    let next: Promise<ScanPage> | undefined = read('');
    while (next) {
      const { notes, total }: ScanPage = await next;
      const upTo: string | undefined = notes.length >= page ? notes.at(-1)?.id : undefined;
      signal.throwIfAborted();
      if (afterId === '') progress.total = total;
      // The next page is read while this one is indexed.
      next = upTo === undefined ? undefined : read(upTo);
      next?.catch(() => undefined);
      await deps.indexer.index(notes.map(noteForIndex), { force: true, background: true, signal });
      await checkUnseen(
        { afterId, ...(upTo === undefined ? {} : { upTo }), ...(userId ? { userId } : {}) },
        new Set(notes.map((note) => note.id)),
        signal,
      );
      progress.done += notes.length;
      progress.total = Math.max(progress.total, progress.done);
      deps.logger.info({ done: progress.done, total: progress.total }, 'reindexing');
      if (upTo !== undefined) afterId = upTo;
    }
    // Notes changed or deleted while it ran were left to their events: all are done.
    progress.total = progress.done;
  };

  return {
    progress: (): ReindexProgress => ({ ...progress }),
    start: (userId?: string): ReindexProgress => {
      if (running) return { ...progress };
      progress = { id: randomUUID(), state: 'running', done: 0, total: 0, error: '' };
      const controller = new AbortController();
      stopping = controller;
      running = run(userId, controller.signal)
        .then(() => {
          progress.state = 'finished';
        })
        .catch((error: unknown) => {
          deps.logger.error({ err: error }, 'reindex failed');
          progress.state = 'failed';
          progress.error = controller.signal.aborted
            ? 'stopped: the ai service was stopped'
            : error instanceof Error
              ? error.message
              : String(error);
        })
        .finally(() => {
          running = undefined;
        });
      return { ...progress };
    },
    /** Waits for the reindex running, if any (for tests). */
    settled: () => running ?? Promise.resolve(),
    /** Ends the reindex running, if any, between two steps, and waits for it. */
    stop: async () => {
      stopping?.abort();
      await (running ?? Promise.resolve());
    },
  };
};

export type Reindexer = ReturnType<typeof createReindexer>;

/**
 * Repairs the index in the background: notes whose chunks are of another embedding model
 * (after the model changed) and notes left waiting while the provider was down are embedded
 * again, a batch at a time, then chunks without a vector of the retrieval encoder are given
 * one; then again every `intervalMs`, or as soon as notes are indexed. Search keeps working
 * meanwhile: words (BM25) find every note, meaning finds those already embedded with the
 * current model, and a chunk still without a retrieval vector is ranked by the first alone.
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
  // Notes indexed since the last look: the retrieval encoder has chunks to embed.
  let dirty = false;
  const unsubscribe = deps.indexer.onIndexed(() => {
    dirty = true;
    wake?.();
  });
  // A stop does not wait for a batch being embedded (a hundred long notes take a while): it is
  // dropped between the model's batches, and embedded again at the next start.
  const stopping = new AbortController();

  /** Embeds waiting notes until none are left or the provider still cannot embed them. */
  const repairStale = async () => {
    while (!stopped) {
      const stale = await indexRepository.staleNotes(deps.knex, deps.indexer.model(), batch);
      indexMetrics.pendingNotes.set(stale.length);
      if (stale.length === 0) return;
      const found = await notesStillThere(deps.notes, stale);
      const outcome = await deps.indexer.index(found.map(noteForIndex), {
        force: true,
        background: true,
        signal: stopping.signal,
      });
      const kept = new Set(found.map((note) => note.id));
      await deps.indexer.remove(stale.filter((row) => !kept.has(row.noteId)));
      deps.logger.info({ notes: stale.length, ...outcome }, 'repaired the AI index');
      if (outcome.pending > 0) return;
    }
  };

  /** Gives chunks their retrieval vectors until none is left without one. */
  const fillRetrieval = async () => {
    while (!stopped) {
      dirty = false;
      if ((await deps.indexer.fillRetrievalVectors({ signal: stopping.signal })) === 0) return;
    }
  };

  const drain = async () => {
    await repairStale();
    await fillRetrieval();
  };

  const done = (async () => {
    while (!stopped) {
      await drain().catch((error: unknown) => {
        if (stopped) return;
        // Tried again after the interval, not at the next note indexed.
        dirty = false;
        deps.logger.error({ err: error }, 'repairing the AI index failed; trying again later');
      });
      // Checked again: a stop that came while draining must not wait out the interval, nor
      // notes indexed since the retrieval encoder last looked.
      if (stopped) return;
      if (dirty) continue;
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
      unsubscribe();
      stopping.abort();
      wake?.();
      await done;
    },
  };
};
