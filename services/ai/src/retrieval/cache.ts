import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { bytesToVector, indexRepository, type LoadedChunkRow } from '../index/repository.js';
import { UserIndex, type IndexedChunk } from './user-index.js';

/** More changed notes than this since the cached version: the index is read whole instead. */
const REFRESH_AT_MOST = 500;

interface Cached {
  /** The user's index version the cached index holds. */
  version: number;
  model: string;
  index: UserIndex;
}

/**
 * Users' indexes kept in memory within a byte budget, least recently used dropped first.
 * Each use compares the user's index version (one indexed read), so every replica sees a
 * change as soon as it is committed, wherever it was made; it then reads only what changed.
 */
export const createIndexCache = (options: {
  knex: Knex;
  maxBytes: number;
  model: () => string;
}) => {
  const cache = new LRUCache<string, Cached>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.index.size),
  });
  const loading = new Map<string, Promise<Cached>>();

  const chunksOf = (rows: LoadedChunkRow[], model: string): IndexedChunk[] =>
    rows.map((row) => ({
      noteId: row.note_id,
      index: row.chunk_index,
      tokens: row.tokens ? row.tokens.split(' ') : [],
      vector: row.model === model ? bytesToVector(row.embedding) : null,
    }));

  const load = async (userId: string, version: number, model: string): Promise<Cached> => {
    const rows = await indexRepository.loadChunks(options.knex, userId);
    return { version, model, index: new UserIndex(chunksOf(rows, model)) };
  };

  /**
   * Brings a cached index up to `version` in place: only the notes changed since it was read
   * are read again. Applying a change twice is harmless, so a change committed while this runs
   * (and read again next time) does no harm.
   */
  const catchUp = async (cached: Cached, userId: string, version: number): Promise<Cached> => {
    const changed = await indexRepository.changedSince(options.knex, userId, cached.version);
    if (changed.length > REFRESH_AT_MOST) return load(userId, version, cached.model);
    const rows = await indexRepository.loadChunks(options.knex, userId, changed);
    cached.index.removeNotes(changed);
    cached.index.addChunks(chunksOf(rows, cached.model));
    cached.version = version;
    return cached;
  };

  return {
    get: async (userId: string): Promise<UserIndex> => {
      const version = await indexRepository.version(options.knex, userId);
      const model = options.model();
      const cached = cache.get(userId);
      if (cached && cached.version === version && cached.model === model) return cached.index;
      let pending = loading.get(userId);
      if (!pending) {
        pending = (
          cached && cached.model === model
            ? catchUp(cached, userId, version)
            : load(userId, version, model)
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
