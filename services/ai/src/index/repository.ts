import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

export interface IndexedNoteRow {
  note_id: string;
  user_id: string;
  title: string;
  tags: string[];
  note_created_at: Date;
  note_updated_at: Date;
  model: string | null;
  excluded: boolean;
  deleted: boolean;
  /**
   * The user's index version this row was written at (set by `stampNotes`): every write of a
   * row gives it a new one. A bigint, so the driver may answer it as a string.
   */
  version?: number | string;
}

/** A chunk's vector by the retrieval encoder: none until the background has embedded it. */
export interface RetrievalVectorColumns {
  retrieval_model: string | null;
  retrieval_embedding: Buffer | null;
}

export interface ChunkRow extends RetrievalVectorColumns {
  note_id: string;
  chunk_index: number;
  user_id: string;
  model: string;
  text: string;
  tokens: string;
  embedding: Buffer;
}

/** A chunk as the search index loads it: no text (read only for the passages shown). */
export interface LoadedChunkRow extends RetrievalVectorColumns {
  note_id: string;
  chunk_index: number;
  model: string;
  tokens: string;
  embedding: Buffer;
}

/** A chunk the retrieval encoder has not embedded (`chunksWithoutRetrievalVectors`). */
export interface UnembeddedChunk {
  note_id: string;
  chunk_index: number;
  user_id: string;
  text: string;
}

export const vectorToBytes = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** A copy: the driver's buffer may not be aligned for a Float32Array view. */
export const bytesToVector = (bytes: Buffer): Float32Array => {
  const vector = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vector.buffer).set(bytes);
  return vector;
};

/** Every read names the owner, so no query of one user can reach another's chunks. */
export const indexRepository = {
  /**
   * Serialises writers of the same notes (two deliveries of one note, a reindex beside the
   * event consumer) for the rest of the transaction, in one order so they cannot deadlock.
   */
  lockNoteIds: async (trx: Knex.Transaction, noteIds: string[]) => {
    if (noteIds.length === 0) return;
    // The inner query sorts before the outer one takes the locks, in that order.
    await trx.raw(
      `select pg_advisory_xact_lock(key) from
         (select hashtextextended(id, 0) as key from unnest(?::text[]) as id order by 1) as keys`,
      [[...new Set(noteIds)]],
    );
  },

  /** The rows of these notes, as committed now (no lock). */
  notesByIds: async (db: Db, noteIds: string[]): Promise<IndexedNoteRow[]> => {
    if (noteIds.length === 0) return [];
    return db<IndexedNoteRow>('indexed_notes').whereIn('note_id', noteIds).select('*');
  },

  /** The rows of these notes, locked until the transaction ends (created empty if missing). */
  lockNotes: async (trx: Knex.Transaction, noteIds: string[]): Promise<IndexedNoteRow[]> => {
    if (noteIds.length === 0) return [];
    return trx<IndexedNoteRow>('indexed_notes').whereIn('note_id', noteIds).forUpdate().select('*');
  },

  upsertNotes: async (trx: Knex.Transaction, rows: IndexedNoteRow[]) => {
    if (rows.length === 0) return;
    await trx('indexed_notes')
      .insert(rows.map((row) => ({ ...row, indexed_at: trx.fn.now() })))
      .onConflict('note_id')
      .merge();
  },

  /** Marks the notes excluded: they keep their id, title and tags, no model. */
  markExcluded: async (trx: Knex.Transaction, noteIds: string[]) => {
    if (noteIds.length === 0) return;
    await trx('indexed_notes')
      .whereIn('note_id', noteIds)
      .update({ excluded: true, model: null, indexed_at: trx.fn.now() });
  },

  deleteChunks: async (trx: Knex.Transaction, noteIds: string[]) => {
    if (noteIds.length === 0) return;
    await trx('chunks').whereIn('note_id', noteIds).delete();
  },

  insertChunks: async (trx: Knex.Transaction, rows: ChunkRow[]) => {
    for (let start = 0; start < rows.length; start += 500) {
      await trx('chunks').insert(rows.slice(start, start + 500));
    }
  },

  /** Moves each user's index version on by one; answers the new versions. */
  bumpVersions: async (trx: Knex.Transaction, userIds: string[]) => {
    // Rows locked in one order by every batch: two batches naming the same users in another
    // order deadlocked on Postgres (seen under load with the ai service on its own).
    const unique = [...new Set(userIds)].sort();
    if (unique.length === 0) return new Map<string, number>();
    const rows = await trx('index_versions')
      .insert(unique.map((user_id) => ({ user_id, version: 1 })))
      .onConflict('user_id')
      .merge({ version: trx.raw('index_versions.version + 1') })
      .returning<{ user_id: string; version: string }[]>(['user_id', 'version']);
    return new Map(rows.map((row) => [row.user_id, Number(row.version)]));
  },

  /** Marks the notes as changed at their owner's new version (see `changedSince`). */
  stampNotes: async (trx: Knex.Transaction, versions: Map<string, number>, noteIds: string[]) => {
    for (const [userId, version] of versions) {
      await trx('indexed_notes')
        .where({ user_id: userId })
        .whereIn('note_id', noteIds)
        .update({ version });
    }
  },

  /** The user's notes changed (indexed again, excluded, deleted) after `version`. */
  changedSince: async (db: Db, userId: string, version: number): Promise<string[]> =>
    (
      await db('indexed_notes')
        .where({ user_id: userId })
        .andWhere('version', '>', version)
        .select<{ note_id: string }[]>('note_id')
    ).map((row) => row.note_id),

  version: async (db: Db, userId: string): Promise<number> => {
    const row = await db('index_versions').where({ user_id: userId }).first<{ version: string }>();
    return Number(row?.version ?? 0);
  },

  /** The chunks of these notes as written, with their vectors (kept when a text is unchanged). */
  chunksOfNotes: async (db: Db, noteIds: string[]): Promise<ChunkRow[]> => {
    if (noteIds.length === 0) return [];
    return db<ChunkRow>('chunks')
      .whereIn('note_id', noteIds)
      .select(
        'note_id',
        'chunk_index',
        'user_id',
        'model',
        'text',
        'tokens',
        'embedding',
        'retrieval_model',
        'retrieval_embedding',
      );
  },

  /** The user's chunks (or those of some of their notes), as the search index loads them. */
  loadChunks: async (db: Db, userId: string, noteIds?: string[]): Promise<LoadedChunkRow[]> =>
    db('chunks as c')
      .join('indexed_notes as n', 'n.note_id', 'c.note_id')
      .where('c.user_id', userId)
      .modify((query) => {
        if (noteIds) query.whereIn('c.note_id', noteIds);
      })
      .select<LoadedChunkRow[]>(
        'c.note_id',
        'c.chunk_index',
        'c.model',
        'c.tokens',
        'c.embedding',
        'c.retrieval_model',
        'c.retrieval_embedding',
      ),

  /**
   * Chunks of live notes that have no vector of the retrieval encoder `model` (new, or of
   * another model), in note order: what the background embeds next.
   */
  chunksWithoutRetrievalVectors: async (
    db: Db,
    model: string,
    limit: number,
  ): Promise<UnembeddedChunk[]> =>
    db('chunks as c')
      .join('indexed_notes as n', 'n.note_id', 'c.note_id')
      .where({ 'n.deleted': false, 'n.excluded': false })
      .andWhere((stale) =>
        stale.whereNull('c.retrieval_model').orWhereNot('c.retrieval_model', model),
      )
      .orderBy(['c.note_id', 'c.chunk_index'])
      .limit(limit)
      .select<UnembeddedChunk[]>('c.note_id', 'c.chunk_index', 'c.user_id', 'c.text'),

  /** How many chunks of live notes (of every user, or of one) have no vector of `model`. */
  countWithoutRetrievalVectors: async (db: Db, model: string, userId?: string): Promise<number> => {
    const [row] = await db('chunks as c')
      .join('indexed_notes as n', 'n.note_id', 'c.note_id')
      .where({ 'n.deleted': false, 'n.excluded': false })
      .modify((query) => {
        if (userId) query.where('c.user_id', userId);
      })
      .andWhere((stale) =>
        stale.whereNull('c.retrieval_model').orWhereNot('c.retrieval_model', model),
      )
      .count<{ count: string }[]>('* as count');
    return Number(row?.count ?? 0);
  },

  /**
   * Writes retrieval vectors to the chunks that still hold the text each was made from (a
   * chunk changed meanwhile keeps none); answers the notes written to.
   */
  setRetrievalVectors: async (
    trx: Knex.Transaction,
    model: string,
    vectors: (UnembeddedChunk & { embedding: Buffer })[],
  ): Promise<string[]> => {
    const written = new Set<string>();
    for (const chunk of vectors) {
      const updated = await trx('chunks')
        .where({ note_id: chunk.note_id, chunk_index: chunk.chunk_index, text: chunk.text })
        .update({ retrieval_model: model, retrieval_embedding: chunk.embedding });
      if (updated > 0) written.add(chunk.note_id);
    }
    return [...written];
  },

  chunkTexts: async (
    db: Db,
    userId: string,
    keys: { noteId: string; index: number }[],
  ): Promise<Map<string, string>> => {
    if (keys.length === 0) return new Map();
    const rows = await db('chunks')
      .where('user_id', userId)
      .whereIn(
        ['note_id', 'chunk_index'],
        keys.map((key) => [key.noteId, key.index]),
      )
      .select<{ note_id: string; chunk_index: number; text: string }[]>(
        'note_id',
        'chunk_index',
        'text',
      );
    return new Map(rows.map((row) => [`${row.note_id}:${row.chunk_index}`, row.text]));
  },

  /**
   * The live notes the index holds with an id after `afterId` and up to `upTo` (to the end
   * when undefined), of every user or of one: what a rebuild's page of the scan covers.
   */
  liveNotesBetween: async (
    db: Db,
    range: { afterId: string; upTo?: string; userId?: string },
  ): Promise<{ noteId: string; userId: string }[]> =>
    db('indexed_notes')
      .where({ deleted: false })
      .modify((query) => {
        if (range.afterId) query.andWhere('note_id', '>', range.afterId);
        if (range.upTo !== undefined) query.andWhere('note_id', '<=', range.upTo);
        if (range.userId) query.where({ user_id: range.userId });
      })
      .select<{ noteId: string; userId: string }[]>('note_id as noteId', 'user_id as userId'),

  /** The live notes the index holds, of every user or of one. */
  liveNotes: async (db: Db, userId?: string): Promise<{ noteId: string; userId: string }[]> =>
    db('indexed_notes')
      .where({ deleted: false })
      .modify((query) => {
        if (userId) query.where({ user_id: userId });
      })
      .select<{ noteId: string; userId: string }[]>('note_id as noteId', 'user_id as userId'),

  /** The user's live notes that carry any of `tags`. */
  notesWithTags: async (db: Db, userId: string, tags: string[]): Promise<string[]> => {
    if (tags.length === 0) return [];
    return (
      await db('indexed_notes')
        .where({ user_id: userId, deleted: false })
        .whereRaw('tags && ?::text[]', [tags])
        .select<{ note_id: string }[]>('note_id')
    ).map((row) => row.note_id);
  },

  /** The user's excluded notes that no longer carry an excluded tag. */
  excludedNotesWithout: async (db: Db, userId: string, tags: string[]): Promise<string[]> =>
    (
      await db('indexed_notes')
        .where({ user_id: userId, deleted: false, excluded: true })
        .whereRaw('not (tags && ?::text[])', [tags])
        .select<{ note_id: string }[]>('note_id')
    ).map((row) => row.note_id),

  /** Live, not excluded notes whose chunks are of another model than `model`. */
  staleNotes: async (db: Db, model: string, limit: number) =>
    db('indexed_notes')
      .where({ deleted: false, excluded: false })
      .andWhere((stale) => stale.whereNull('model').orWhereNot('model', model))
      .orderBy('note_id')
      .limit(limit)
      .select<{ noteId: string; userId: string }[]>('note_id as noteId', 'user_id as userId'),

  counts: async (db: Db, userId: string, model: string) => {
    const [row] = await db('indexed_notes')
      .where({ user_id: userId, deleted: false, excluded: false })
      .select<{ indexed: string; pending: string }[]>(
        db.raw('count(*) filter (where model = ?) as indexed', [model]),
        db.raw('count(*) filter (where model is distinct from ?) as pending', [model]),
      );
    return { notes: Number(row?.indexed ?? 0), pending: Number(row?.pending ?? 0) };
  },

  /** The tags the user's notes carry, most used first. */
  tagsOfUser: async (db: Db, userId: string, limit = 200): Promise<string[]> =>
    (
      await db('indexed_notes')
        .where({ user_id: userId, deleted: false })
        .select<{ tag: string }[]>(db.raw('unnest(tags) as tag'))
        .groupBy('tag')
        .orderByRaw('count(*) desc')
        .limit(limit)
    ).map((row) => row.tag),
};
