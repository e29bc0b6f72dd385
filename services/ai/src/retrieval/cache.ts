import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { bytesToVector, indexRepository, type LoadedChunkRow } from '../index/repository.js';
import { UserIndex, type IndexedChunk } from './user-index.js';

/** More changed notes than this since the cached version: the index is read whole instead. */
const REFRESH_AT_MOST = 500;

/** The models whose vectors an index holds: the embedding model's and the retrieval encoder's. */
export interface IndexModels {
  embeddings: string;
  retrieval: string | null;
}

interface Cached {
  /** The user's index version the cached index holds. */
  version: number;
  models: IndexModels;
  index: UserIndex;
}

const sameModels = (a: IndexModels, b: IndexModels) =>
  a.embeddings === b.embeddings && a.retrieval === b.retrieval;

/**
 * Users' indexes kept in memory within a byte budget, least recently used dropped first.
 * Each use compares the user's index version (one indexed read), so every replica sees a
 * change as soon as it is committed, wherever it was made; it then reads only what changed.
 */
export const createIndexCache = (options: {
  knex: Knex;
  maxBytes: number;
  models: () => IndexModels;
}) => {
  const cache = new LRUCache<string, Cached>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.index.size),
  });
  const loading = new Map<string, Promise<Cached>>();

  const chunksOf = (rows: LoadedChunkRow[], models: IndexModels): IndexedChunk[] =>
    rows.map((row) => ({
      noteId: row.note_id,
      index: row.chunk_index,
      tokens: row.tokens ? row.tokens.split(' ') : [],
      vector: row.model === models.embeddings ? bytesToVector(row.embedding) : null,
      retrievalVector:
        row.retrieval_embedding && row.retrieval_model === models.retrieval
          ? bytesToVector(row.retrieval_embedding)
          : null,
    }));

  const load = async (userId: string, version: number, models: IndexModels): Promise<Cached> => {
    const rows = await indexRepository.loadChunks(options.knex, userId);
    return { version, models, index: new UserIndex(chunksOf(rows, models)) };
  };

  /**
   * Brings a cached index up to `version` in place: only the notes changed since it was read
   * are read again. Applying a change twice is harmless, so a change committed while this runs
   * (and read again next time) does no harm.
   */
  const catchUp = async (cached: Cached, userId: string, version: number): Promise<Cached> => {
    const changed = await indexRepository.changedSince(options.knex, userId, cached.version);
    if (changed.length > REFRESH_AT_MOST) return load(userId, version, cached.models);
    const rows = await indexRepository.loadChunks(options.knex, userId, changed);
    cached.index.removeNotes(changed);
    cached.index.addChunks(chunksOf(rows, cached.models));
    cached.version = version;
    return cached;
  };

  return {
    get: async (userId: string): Promise<UserIndex> => {
      const version = await indexRepository.version(options.knex, userId);
      const models = options.models();
      const cached = cache.get(userId);
      const current = cached && sameModels(cached.models, models);
      if (current && cached.version === version) return cached.index;
      let pending = loading.get(userId);
      if (!pending) {
        pending = (
          current ? catchUp(cached, userId, version) : load(userId, version, models)
        ).finally(() => loading.delete(userId));
        loading.set(userId, pending);
      }
      const entry = await pending;
      // Set again: the size the cache's budget counts has changed.
      cache.set(userId, entry);
      return entry.index;
    },
    clear: () => cache.clear(),
  };
};

export type IndexCache = ReturnType<typeof createIndexCache>;
