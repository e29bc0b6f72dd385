import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { Knex } from 'knex';
import { AppError } from '@noted/api';
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
} from './repository.js';

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

/** Failures of the provider that pass: the notes wait for it instead of being given up. */
const PROVIDER_OUTAGES = new Set(['AI_PROVIDER_FAILED', 'TIMEOUT', 'RATE_LIMITED', 'UNAVAILABLE']);
const isProviderOutage = (error: unknown) =>
  error instanceof AppError && PROVIDER_OUTAGES.has(error.code);

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

  const embedChunks = async (notes: NoteForIndex[], signal?: AbortSignal): Promise<ChunkRow[]> => {
    const rows: Omit<ChunkRow, 'embedding'>[] = notes.flatMap((note) =>
      chunkNote({ title: note.title, body: note.body }).map((chunk) => ({
        note_id: note.id,
        chunk_index: chunk.index,
        user_id: note.userId,
        model: model(),
        text: chunk.text,
        tokens: tokenize(chunk.text).join(' '),
      })),
    );
    const embedded: ChunkRow[] = [];
    // One provider call per user, so token usage is counted against whom it served.
    for (const userId of new Set(rows.map((row) => row.user_id))) {
      const ofUser = rows.filter((row) => row.user_id === userId);
      const { vectors } = await provider.embed(
        ofUser.map((row) => row.text),
        { userId, purpose: 'index', ...(signal ? { signal } : {}) },
      );
      ofUser.forEach((row, position) => {
        const vector = vectors[position];
        if (vector) embedded.push({ ...row, embedding: vectorToBytes(vector) });
      });
    }
    return embedded;
  };

  /** `signal` stops embedding between the model's batches (nothing is written then). */
  const index = async (
    given: NoteForIndex[],
    options: { force?: boolean; signal?: AbortSignal } = {},
  ) => {
    const force = options.force ?? false;
    const outcome: IndexOutcome = { indexed: 0, excluded: 0, skipped: 0, pending: 0 };
    const newest = newestOf(given);
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
    const work = notes.filter((note) => needsWork(note, known.get(note.id), force, revivable));
    outcome.skipped = notes.length - work.length;
    if (work.length === 0) return outcome;

    const excludedTags = await settingsRepository.excludedTagsOf(
      knex,
      work.map((note) => note.userId),
    );
    const isExcluded = (note: NoteForIndex) =>
      note.tags.some((tag) => excludedTags.get(note.userId)?.has(tag));
    const included = work.filter((note) => !isExcluded(note));
    // Embedding may take long (a remote model): done before the transaction, not inside it.
    let chunks: ChunkRow[] = [];
    let pending = false;
    try {
      chunks = await embedChunks(included, options.signal);
    } catch (error) {
      // Retrying the event for a while would lose the notes in a longer outage; marked as
      // waiting (no model), the repair loop embeds them once the provider answers again.
      if (!isProviderOutage(error)) throw error;
      pending = true;
    }

    await knex.transaction(async (trx) => {
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
      // or deleted the note.
      const winners = work.filter((note) =>
        needsWork(note, current.get(note.id), force, revivable),
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
    indexMetrics.notesIndexed.inc({ outcome: 'indexed' }, outcome.indexed);
    indexMetrics.notesIndexed.inc({ outcome: 'excluded' }, outcome.excluded);
    indexMetrics.notesIndexed.inc({ outcome: 'skipped' }, outcome.skipped);
    indexMetrics.notesIndexed.inc({ outcome: 'pending' }, outcome.pending);
    return outcome;
  };

  /** Forgets notes at once and for good: a late event about one of them changes nothing. */
  const remove = async (removals: { noteId: string; userId: string }[]) => {
    if (removals.length === 0) return;
    await knex.transaction(async (trx) => {
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
    indexMetrics.notesIndexed.inc({ outcome: 'deleted' }, removals.length);
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

  return { index, remove, exclude, model };
};

export type Indexer = ReturnType<typeof createIndexer>;
