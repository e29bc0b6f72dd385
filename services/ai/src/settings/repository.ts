import type { Knex } from 'knex';
import { erasedUsers } from '@noted/db';
import type { Usage } from '../providers/port.js';

type Db = Knex | Knex.Transaction;

export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

export const settingsRepository = {
  excludedTags: async (db: Db, userId: string): Promise<string[]> =>
    (
      await db('excluded_tags')
        .where({ user_id: userId })
        .orderBy('tag')
        .select<{ tag: string }[]>('tag')
    ).map((row) => row.tag),

  /** Excluded tags of several users at once. */
  excludedTagsOf: async (db: Db, userIds: string[]): Promise<Map<string, Set<string>>> => {
    const byUser = new Map<string, Set<string>>();
    if (userIds.length === 0) return byUser;
    const rows = await db('excluded_tags')
      .whereIn('user_id', [...new Set(userIds)])
      .select<{ user_id: string; tag: string }[]>('user_id', 'tag');
    for (const row of rows) {
      const tags = byUser.get(row.user_id) ?? new Set<string>();
      tags.add(row.tag);
      byUser.set(row.user_id, tags);
    }
    return byUser;
  },

  replaceExcludedTags: async (trx: Knex.Transaction, userId: string, tags: string[]) => {
    await trx('excluded_tags').where({ user_id: userId }).delete();
    if (tags.length > 0) {
      await trx('excluded_tags').insert(tags.map((tag) => ({ user_id: userId, tag })));
    }
  },

  /** Adds to the user's usage of the month, unless the user was erased here meanwhile. */
  recordUsage: async (db: Db, userId: string, model: string, usage: Usage, at = new Date()) =>
    db.transaction(async (trx) => {
      if ((await erasedUsers.among(trx, [userId])).size > 0) return;
      await trx('token_usage')
        .insert({
          user_id: userId,
          month: monthOf(at),
          model,
          prompt_tokens: usage.promptTokens,
          completion_tokens: usage.completionTokens,
        })
        .onConflict(['user_id', 'month', 'model'])
        .merge({
          prompt_tokens: trx.raw('token_usage.prompt_tokens + excluded.prompt_tokens'),
          completion_tokens: trx.raw('token_usage.completion_tokens + excluded.completion_tokens'),
        });
    }),

  usage: async (db: Db, userId: string, month: string): Promise<Usage> => {
    const [row] = await db('token_usage')
      .where({ user_id: userId, month })
      .select<{ prompt: string | null; completion: string | null }[]>(
        db.raw('sum(prompt_tokens) as prompt'),
        db.raw('sum(completion_tokens) as completion'),
      );
    return {
      promptTokens: Number(row?.prompt ?? 0),
      completionTokens: Number(row?.completion ?? 0),
    };
  },
};
