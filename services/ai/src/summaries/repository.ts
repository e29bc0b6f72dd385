import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

export type SummaryKind = 'note' | 'day' | 'week' | 'month' | 'year';

export interface CachedSummary<T> {
  content: T;
  generatedAt: Date;
}

/** Cached summaries, per user; a change to a note drops every summary that covered it. */
export const summariesRepository = {
  find: async <T>(
    db: Db,
    userId: string,
    kind: SummaryKind,
    key: string,
  ): Promise<CachedSummary<T> | undefined> => {
    const row = await db('summaries')
      .where({ user_id: userId, kind, key })
      .first<{ content: T; generated_at: Date } | undefined>('content', 'generated_at');
    return row ? { content: row.content, generatedAt: row.generated_at } : undefined;
  },

  save: async (
    db: Db,
    row: {
      userId: string;
      kind: SummaryKind;
      key: string;
      period?: { from: Date; to: Date };
      content: unknown;
      generatedAt: Date;
    },
  ) => {
    await db('summaries')
      .insert({
        user_id: row.userId,
        kind: row.kind,
        key: row.key,
        period_from: row.period?.from ?? null,
        period_to: row.period?.to ?? null,
        content: JSON.stringify(row.content),
        generated_at: row.generatedAt,
      })
      .onConflict(['user_id', 'kind', 'key'])
      .merge();
  },

  /** Drops the summaries of these notes and of every period one of them was created in. */
  invalidate: async (db: Db, notes: { userId: string; noteId: string; createdAt: Date }[]) => {
    for (const userId of new Set(notes.map((note) => note.userId))) {
      const ofUser = notes.filter((note) => note.userId === userId);
      await db('summaries')
        .where({ user_id: userId })
        .andWhere((covered) =>
          covered
            .where((note) =>
              note.where({ kind: 'note' }).whereIn(
                'key',
                ofUser.map((touched) => touched.noteId),
              ),
            )
            .orWhereRaw(
              'exists (select 1 from unnest(?::timestamptz[]) as created ' +
                'where period_from <= created and period_to > created)',
              [ofUser.map((touched) => touched.createdAt.toISOString())],
            ),
        )
        .delete();
    }
  },

  invalidateUser: async (db: Db, userId: string) => {
    await db('summaries').where({ user_id: userId }).delete();
  },
};
