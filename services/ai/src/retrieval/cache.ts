import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { bytesToVector, indexRepository } from '../index/repository.js';
import { UserIndex } from './user-index.js';

interface Cached {
  version: number;
  model: string;
  index: UserIndex;
}

/**
 * Users' indexes kept in memory within a byte budget, least recently used dropped first.
 * Each use compares the user's index version (one indexed read), so every replica sees a
 * change as soon as it is committed, wherever it was made.
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

  const load = async (userId: string, version: number, model: string): Promise<Cached> => {
    const rows = await indexRepository.loadChunks(options.knex, userId);
    const index = new UserIndex(
      rows.map((row) => ({
        noteId: row.note_id,
        index: row.chunk_index,
        title: row.title,
        tags: row.tags,
        tokens: row.tokens ? row.tokens.split(' ') : [],
        vector: row.model === model ? bytesToVector(row.embedding) : null,
      })),
    );
    return { version, model, index };
  };

  return {
    get: async (userId: string): Promise<UserIndex> => {
      const version = await indexRepository.version(options.knex, userId);
      const model = options.model();
      const cached = cache.get(userId);
      if (cached && cached.version === version && cached.model === model) return cached.index;
      const key = `${userId}:${version}:${model}`;
      let pending = loading.get(key);
      if (!pending) {
        pending = load(userId, version, model).finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      const entry = await pending;
      cache.set(userId, entry);
      return entry.index;
    },
    clear: () => cache.clear(),
  };
};

export type IndexCache = ReturnType<typeof createIndexCache>;
