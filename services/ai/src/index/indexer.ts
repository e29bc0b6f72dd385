import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Knex } from 'knex';
import { AppError } from '@noted/api';
import { erasedUsers } from '@noted/db';
import type { notesV1 } from '@noted/proto';
import { chunkNote } from '../local/chunks.js';
import { tokenize } from '../local/text.js';
import { notesStillThere, type NotesClient } from '../notes-client.js';
import type { AiProvider } from '../providers/port.js';
import { settingsRepository } from '../settings/repository.js';
import { summariesRepository } from '../summaries/repository.js';
import { indexMetrics } from './metrics.js';
import {
  indexRepository,
  vectorToBytes,
  type ChunkRow,
  type IndexedNoteRow,
  type RetrievalVectorColumns,
  type UnembeddedChunk,
} from './repository.js';

/** A chunk planned from a note's text, not yet embedded. */
type PlannedChunk = Omit<ChunkRow, 'embedding' | keyof RetrievalVectorColumns>;

/** A note as the index needs it. */
export interface NoteForIndex {
  id: string;
  userId: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

export const noteForIndex = (note: notesV1.Note): NoteForIndex => ({
  id: note.id,
  userId: note.userId,
  title: note.title,
  body: note.body,
  tags: note.tags,
  createdAt: note.createdAt ? timestampDate(note.createdAt) : new Date(0),
  updatedAt: note.updatedAt ? timestampDate(note.updatedAt) : new Date(0),
});

export interface IndexOutcome {
  indexed: number;
  excluded: number;
  skipped: number;
  /** Left for the repair loop: the provider could not embed them just now. */
  pending: number;
}

/** Texts a background embedding asks for at once: what a note event may wait behind. */
const BACKGROUND_SLICE = 16;
/**
 * Chunks the retrieval encoder embeds per round, and per call: e5 takes about 0.3 s a chunk
 * on one core, so a note event waits behind a second or so of it at most.
 */
const RETRIEVAL_BATCH = 64;
const RETRIEVAL_SLICE = 4;

/** Failures of the provider that pass: the notes wait for it instead of being given up. */
const PROVIDER_OUTAGES = new Set(['AI_PROVIDER_FAILED', 'TIMEOUT', 'RATE_LIMITED', 'UNAVAILABLE']);
const isProviderOutage = (error: unknown) =>
  error instanceof AppError && PROVIDER_OUTAGES.has(error.code);

/** Chunks grouped by their note. */
const byNote = <T extends { note_id: string }>(chunks: T[]) => {
  const grouped = new Map<string, T[]>();
  for (const chunk of chunks) {
    const ofNote = grouped.get(chunk.note_id);
    if (ofNote) ofNote.push(chunk);
    else grouped.set(chunk.note_id, [chunk]);
  }
  return grouped;
};

/** The newest version of each note among those given. */
const newestOf = (notes: NoteForIndex[]) => {
  const newest = new Map<string, NoteForIndex>();
  for (const note of notes) {
    const known = newest.get(note.id);
    if (!known || known.updatedAt < note.updatedAt) newest.set(note.id, note);
  }
  return [...newest.values()];
};

const rowOf = (
  note: NoteForIndex,
  fields: Pick<IndexedNoteRow, 'model' | 'excluded'>,
): IndexedNoteRow => ({
  note_id: note.id,
  user_id: note.userId,
  title: note.title,
  tags: note.tags,
  note_created_at: note.createdAt,
  note_updated_at: note.updatedAt,
  deleted: false,
  ...fields,
});

/**
 * Keeps the chunk index current. Idempotent: a note version already indexed (or older than
 * the one indexed) changes nothing, so redelivered events are harmless. A deleted note is a
 * tombstone that no event revives; only the notes service can, by still having the note when
 * read after the tombstone was written (deletes are final there, so such a tombstone was
 * wrong). Notes with a tag their owner excluded from AI are never embedded: only their id,
 * title and tags are kept, to find them again when the tag is no longer excluded.
 */
export const createIndexer = (deps: {
  knex: Knex;
  provider: AiProvider;
  notes: Pick<NotesClient, 'many'>;
}) => {
  const { knex, provider } = deps;
  const model = () => provider.models.embeddings;

  /**
   * Whether `note` is to be written over `row`: a newer version always, the same version when
   * forced or when its chunks are of another model, an older one never; over a tombstone only
   * a note read again after that very tombstone (`revivable`: its row version) was written.
   */
  const needsWork = (
    note: NoteForIndex,
    row: IndexedNoteRow | undefined,
    force: boolean,
    revivable: Map<string, number>,
  ) => {
    if (!row) return true;
    if (row.deleted) return revivable.get(note.id) === Number(row.version ?? 0);
    const indexed = row.note_updated_at.getTime();
    const given = note.updatedAt.getTime();
    if (indexed !== given) return indexed < given;
    return force || (!row.excluded && row.model !== model());
  };

  /**
   * The tombstoned notes among `notes` that the notes service still has, read now, with the
   * tombstone each may replace. A tombstone written for a delete is written after the delete,
   * so the read cannot find its note; one it finds was written in error (as rebuilds did to
   * notes created behind their scan) and gives way, unless a new tombstone replaced it since.
   */
  const stillThere = async (notes: NoteForIndex[], known: Map<string, IndexedNoteRow>) => {
    const tombstoned = notes.filter((note) => known.get(note.id)?.deleted);
    const found = (
      await notesStillThere(
        deps.notes,
        tombstoned.map((note) => ({ noteId: note.id, userId: note.userId })),
      )
    ).map(noteForIndex);
    const revivable = new Map(
      found.map((note) => [note.id, Number(known.get(note.id)?.version ?? 0)]),
    );
    return { found, revivable };
  };

  /** The chunks the chunker makes of each note now, tokenized, not yet embedded. */
  const chunksOf = (notes: NoteForIndex[]): PlannedChunk[] =>
    notes.flatMap((note) =>
      chunkNote({ title: note.title, body: note.body }).map((chunk) => ({
        note_id: note.id,
        chunk_index: chunk.index,
        user_id: note.userId,
        model: model(),
        text: chunk.text,
        tokens: tokenize(chunk.text).join(' '),
      })),
    );

  // Embeddings asked for by note events (and anything else not in the background) in flight:
  // background work waits until there are none, so a change is indexed first.
  let foreground = 0;
  let quietWaiters: (() => void)[] = [];
  /** Resolves once no foreground embedding is in flight; rejects when `signal` aborts first. */
  const quiet = (signal?: AbortSignal) =>
    foreground === 0
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const abort = () => {
            quietWaiters = quietWaiters.filter((waiter) => waiter !== wake);
            reject(signal?.reason as Error);
          };
          const wake = () => {
            signal?.removeEventListener('abort', abort);
            resolve();
          };
          signal?.addEventListener('abort', abort, { once: true });
          quietWaiters.push(wake);
        });
  const inForeground = async <T>(work: () => Promise<T>): Promise<T> => {
    foreground += 1;
    try {
      return await work();
    } finally {
      foreground -= 1;
      if (foreground === 0) {
        const waiting = quietWaiters;
        quietWaiters = [];
        for (const wake of waiting) wake();
      }
    }
  };

  /**
   * Vectors for `rows`. A chunk whose text was already embedded with the configured model
   * (`known`, by text) keeps that vector: a vector is a function of model and text; so does
   * its retrieval vector (`knownForRetrieval`), which the background makes otherwise. The rest
   * are embedded with one provider call per user (so token usage is counted against whom it
   * served); in the background, BACKGROUND_SLICE texts at a time, each slice only once no
   * foreground embedding is in flight, so a note event waits behind one slice at most.
   */
  const embedChunks = async (
    rows: PlannedChunk[],
    known: Map<string, Buffer>,
    knownForRetrieval: Map<string, Buffer>,
    options: { signal?: AbortSignal; background?: boolean },
  ): Promise<ChunkRow[]> => {
    const retrievalModel = provider.models.retrieval;
    const withRetrieval = (row: PlannedChunk, embedding: Buffer): ChunkRow => {
      const retrieval = retrievalModel ? knownForRetrieval.get(row.text) : undefined;
      return {
        ...row,
        embedding,
        retrieval_model: retrieval ? retrievalModel : null,
        retrieval_embedding: retrieval ?? null,
      };
    };
    const embedded: ChunkRow[] = [];
    const missing: PlannedChunk[] = [];
    for (const row of rows) {
      const vector = known.get(row.text);
      if (vector) embedded.push(withRetrieval(row, vector));
      else missing.push(row);
    }
    const signal = options.signal ? { signal: options.signal } : {};
    for (const userId of new Set(missing.map((row) => row.user_id))) {
      const ofUser = missing.filter((row) => row.user_id === userId);
      const slice = options.background ? BACKGROUND_SLICE : ofUser.length;
      for (let start = 0; start < ofUser.length; start += slice) {
        const part = ofUser.slice(start, start + slice);
        const call = () =>
          provider.embed(
            part.map((row) => row.text),
            { userId, purpose: 'index', ...signal },
          );
        let vectors: Float32Array[];
        if (options.background) {
          options.signal?.throwIfAborted();
          await quiet(options.signal);
          ({ vectors } = await call());
        } else {
          ({ vectors } = await inForeground(call));
        }
        part.forEach((row, position) => {
          const vector = vectors[position];
          if (vector) embedded.push(withRetrieval(row, vectorToBytes(vector)));
        });
      }
    }
    return embedded;
  };

  /**
   * Whether the index holds `note` just as it would write it now: same version, title, tags
   * and exclusion, and (unless excluded) the same chunks of the configured model. A rebuild
   * meets mostly such notes, and leaves them alone.
   */
  const unchanged = (
    note: NoteForIndex,
    row: IndexedNoteRow | undefined,
    excluded: boolean,
    indexed: PlannedChunk[],
    planned: PlannedChunk[],
  ) => {
    if (!row || row.deleted || row.excluded !== excluded) return false;
    if (
      row.note_updated_at.getTime() !== note.updatedAt.getTime() ||
      row.note_created_at.getTime() !== note.createdAt.getTime() ||
      row.title !== note.title ||
      row.tags.length !== note.tags.length ||
      row.tags.some((tag, position) => tag !== note.tags[position])
    ) {
      return false;
    }
    if (excluded) return true;
    if (row.model !== model() || indexed.length !== planned.length) return false;
    const byIndex = new Map(indexed.map((chunk) => [chunk.chunk_index, chunk]));
    return planned.every((chunk) => {
      const held = byIndex.get(chunk.chunk_index);
      return (
        held?.model === chunk.model && held.text === chunk.text && held.tokens === chunk.tokens
      );
    });
  };

  /**
   * `signal` stops embedding between the model's batches (nothing is written then).
   * `background` (a rebuild, the repair loop) yields the model to note events.
   */
  const index = async (
    given: NoteForIndex[],
    options: { force?: boolean; signal?: AbortSignal; background?: boolean } = {},
  ) => {
    const force = options.force ?? false;
    const outcome: IndexOutcome = { indexed: 0, excluded: 0, skipped: 0, pending: 0 };
    // The notes of a user erased here are dropped (an event that came late): checked now, to
    // embed nothing, and again under the user's lock where the rows are written.
    const versions = newestOf(given);
    const erased = await erasedUsers.peek(
      knex,
      versions.map((note) => note.userId),
    );
    const newest = versions.filter((note) => !erased.has(note.userId));
    outcome.skipped = versions.length - newest.length;
    if (newest.length === 0) return outcome;
    const known = new Map(
      (
        await indexRepository.notesByIds(
          knex,
          newest.map((note) => note.id),
        )
      ).map((row) => [row.note_id, row]),
    );
    const { found, revivable } = await stillThere(newest, known);
    // A note read again replaces the version given: it is the notes service's latest.
    const notes = newestOf([...newest, ...found]);
    const candidates = notes.filter((note) =>
      needsWork(note, known.get(note.id), force, revivable),
    );
    outcome.skipped += notes.length - candidates.length;
    if (candidates.length === 0) return outcome;

    const excludedTags = await settingsRepository.excludedTagsOf(
      knex,
      candidates.map((note) => note.userId),
    );
    const isExcluded = (note: NoteForIndex) =>
      note.tags.some((tag) => excludedTags.get(note.userId)?.has(tag));
    const planned = chunksOf(candidates.filter((note) => !isExcluded(note)));
    const indexedChunks = await indexRepository.chunksOfNotes(
      knex,
      candidates.map((note) => note.id),
    );
    const indexedOf = byNote(indexedChunks);
    const plannedOf = byNote(planned);
    const work = candidates.filter(
      (note) =>
        !unchanged(
          note,
          known.get(note.id),
          isExcluded(note),
          indexedOf.get(note.id) ?? [],
          plannedOf.get(note.id) ?? [],
        ),
    );
    outcome.skipped += candidates.length - work.length;
    if (work.length === 0) return outcome;
    const workIds = new Set(work.map((note) => note.id));
    const vectorsByText = new Map(
      indexedChunks
        .filter((chunk) => chunk.model === model())
        .map((chunk) => [chunk.text, chunk.embedding]),
    );
    const retrievalVectorsByText = new Map(
      indexedChunks.flatMap((chunk) =>
        chunk.retrieval_embedding && chunk.retrieval_model === provider.models.retrieval
          ? [[chunk.text, chunk.retrieval_embedding] as const]
          : [],
      ),
    );
    // Embedding may take long (a remote model): done before the transaction, not inside it.
    let chunks: ChunkRow[] = [];
    let pending = false;
    try {
      chunks = await embedChunks(
        planned.filter((chunk) => workIds.has(chunk.note_id)),
        vectorsByText,
        retrievalVectorsByText,
        options,
      );
    } catch (error) {
      // Retrying the event for a while would lose the notes in a longer outage; marked as
      // waiting (no model), the repair loop embeds them once the provider answers again.
      if (!isProviderOutage(error)) throw error;
      pending = true;
    }

    await knex.transaction(async (trx) => {
      const erasedSince = await erasedUsers.among(
        trx,
        work.map((note) => note.userId),
      );
      await indexRepository.lockNoteIds(
        trx,
        work.map((note) => note.id),
      );
      const current = new Map(
        (
          await indexRepository.lockNotes(
            trx,
            work.map((note) => note.id),
          )
        ).map((row) => [row.note_id, row]),
      );
      // Rechecked under the lock: another writer may have indexed a newer version meanwhile,
      // or deleted the note, or the user's erasure may have begun.
      const winners = work.filter(
        (note) =>
          !erasedSince.has(note.userId) && needsWork(note, current.get(note.id), force, revivable),
      );
      outcome.skipped += work.length - winners.length;
      if (winners.length === 0) return;
      const winnerIds = new Set(winners.map((note) => note.id));
      await indexRepository.deleteChunks(trx, [...winnerIds]);
      await indexRepository.insertChunks(
        trx,
        chunks.filter((chunk) => winnerIds.has(chunk.note_id)),
      );
      await indexRepository.upsertNotes(
        trx,
        winners.map((note) =>
          isExcluded(note)
            ? rowOf(note, { model: null, excluded: true })
            : rowOf(note, { model: pending ? null : model(), excluded: false }),
        ),
      );
      await indexRepository.stampNotes(
        trx,
        await indexRepository.bumpVersions(
          trx,
          winners.map((note) => note.userId),
        ),
        [...winnerIds],
      );
      await summariesRepository.invalidate(
        trx,
        winners.flatMap((note) => {
          const before = current.get(note.id);
          const touched = [{ userId: note.userId, noteId: note.id, createdAt: note.createdAt }];
          return before
            ? [...touched, { ...touched[0]!, createdAt: before.note_created_at }]
            : touched;
        }),
      );
      const excluded = winners.filter(isExcluded).length;
      outcome.excluded += excluded;
      if (pending) outcome.pending += winners.length - excluded;
      else outcome.indexed += winners.length - excluded;
    });
    if (outcome.indexed > 0 && provider.models.retrieval)
      for (const listener of changed) listener();
    indexMetrics.notesIndexed.inc({ outcome: 'indexed' }, outcome.indexed);
    indexMetrics.notesIndexed.inc({ outcome: 'excluded' }, outcome.excluded);
    indexMetrics.notesIndexed.inc({ outcome: 'skipped' }, outcome.skipped);
    indexMetrics.notesIndexed.inc({ outcome: 'pending' }, outcome.pending);
    return outcome;
  };

  /**
   * Forgets notes at once and for good: a late event about one of them changes nothing. Those
   * of a user erased here write nothing, not even their tombstones.
   */
  const remove = async (given: { noteId: string; userId: string }[]) => {
    if (given.length === 0) return;
    let removed = 0;
    await knex.transaction(async (trx) => {
      const erased = await erasedUsers.among(
        trx,
        given.map((removal) => removal.userId),
      );
      const removals = given.filter((removal) => !erased.has(removal.userId));
      removed = removals.length;
      if (removals.length === 0) return;
      const ids = removals.map((removal) => removal.noteId);
      await indexRepository.lockNoteIds(trx, ids);
      const current = new Map(
        (await indexRepository.lockNotes(trx, ids)).map((row) => [row.note_id, row]),
      );
      const epoch = new Date(0);
      await indexRepository.deleteChunks(trx, ids);
      await indexRepository.upsertNotes(
        trx,
        removals.map((removal) => {
          const row = current.get(removal.noteId);
          return {
            note_id: removal.noteId,
            user_id: row?.user_id ?? removal.userId,
            title: '',
            tags: [],
            note_created_at: row?.note_created_at ?? epoch,
            note_updated_at: row?.note_updated_at ?? epoch,
            model: null,
            excluded: false,
            deleted: true,
          };
        }),
      );
      await indexRepository.stampNotes(
        trx,
        await indexRepository.bumpVersions(
          trx,
          removals.map((removal) => removal.userId),
        ),
        ids,
      );
      await summariesRepository.invalidate(
        trx,
        removals.flatMap((removal) => {
          const row = current.get(removal.noteId);
          return row
            ? [{ userId: row.user_id, noteId: removal.noteId, createdAt: row.note_created_at }]
            : [];
        }),
      );
    });
    indexMetrics.notesIndexed.inc({ outcome: 'deleted' }, removed);
    indexMetrics.notesIndexed.inc({ outcome: 'skipped' }, given.length - removed);
  };

  /**
   * Applies a user's new excluded tags: their notes lose their chunks (and every summary of
   * the user is dropped, since those may quote them); notes no longer excluded come back
   * through `index` once their content is read again.
   */
  const exclude = async (userId: string, tags: string[]) => {
    await knex.transaction(async (trx) => {
      const noteIds = await indexRepository.notesWithTags(trx, userId, tags);
      await indexRepository.lockNoteIds(trx, noteIds);
      await indexRepository.deleteChunks(trx, noteIds);
      await indexRepository.markExcluded(trx, noteIds);
      await indexRepository.stampNotes(
        trx,
        await indexRepository.bumpVersions(trx, [userId]),
        noteIds,
      );
      await summariesRepository.invalidateUser(trx, userId);
    });
  };

  const changed = new Set<() => void>();
  /**
   * Calls `listener` whenever notes have been indexed, when there is a retrieval encoder: its
   * cue to embed their new chunks.
   */
  const onIndexed = (listener: () => void) => {
    changed.add(listener);
    return () => changed.delete(listener);
  };

  /**
   * Gives up to `limit` chunks without one a vector by the retrieval encoder, in the
   * background (each slice once no note event is being embedded), and writes them where the
   * chunk still holds the text embedded; the owners' index versions move on, so every
   * replica's cache reads those notes again. Answers the chunks it embedded: 0 when none was
   * left (or there is no retrieval encoder).
   */
  const fillRetrievalVectors = async (
    options: { limit?: number; signal?: AbortSignal } = {},
  ): Promise<number> => {
    const retrievalModel = provider.models.retrieval;
    if (!retrievalModel) return 0;
    const chunks = await indexRepository.chunksWithoutRetrievalVectors(
      knex,
      retrievalModel,
      options.limit ?? RETRIEVAL_BATCH,
    );
    if (chunks.length === 0) {
      indexMetrics.retrievalPending.set(0);
      return 0;
    }
    const vectors: (UnembeddedChunk & { embedding: Buffer })[] = [];
    for (let start = 0; start < chunks.length; start += RETRIEVAL_SLICE) {
      const slice = chunks.slice(start, start + RETRIEVAL_SLICE);
      options.signal?.throwIfAborted();
      await quiet(options.signal);
      // One call per user in the slice, so usage is counted against whom it served.
      for (const userId of new Set(slice.map((chunk) => chunk.user_id))) {
        const ofUser = slice.filter((chunk) => chunk.user_id === userId);
        const { vectors: embedded } = await provider.embedForRetrieval(
          ofUser.map((chunk) => chunk.text),
          'passage',
          { userId, purpose: 'index', ...(options.signal ? { signal: options.signal } : {}) },
        );
        ofUser.forEach((chunk, at) => {
          const vector = embedded[at];
          if (vector) vectors.push({ ...chunk, embedding: vectorToBytes(vector) });
        });
      }
    }
    await knex.transaction(async (trx) => {
      await indexRepository.lockNoteIds(trx, [...new Set(vectors.map((chunk) => chunk.note_id))]);
      const written = await indexRepository.setRetrievalVectors(trx, retrievalModel, vectors);
      const owners = [
        ...new Set(vectors.filter((c) => written.includes(c.note_id)).map((c) => c.user_id)),
      ];
      await indexRepository.stampNotes(
        trx,
        await indexRepository.bumpVersions(trx, owners),
        written,
      );
    });
    indexMetrics.retrievalChunks.inc(vectors.length);
    indexMetrics.retrievalPending.set(
      await indexRepository.countWithoutRetrievalVectors(knex, retrievalModel),
    );
    return chunks.length;
  };

  return { index, remove, exclude, model, onIndexed, fillRetrievalVectors };
};

export type Indexer = ReturnType<typeof createIndexer>;
