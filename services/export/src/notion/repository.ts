import type { Knex } from 'knex';
import type { NotionSyncStatus } from '@noted/api';

export interface ConnectionRow {
  user_id: string;
  sub: string;
  email: string;
  name: string;
  token: Buffer;
  workspace_id: string | null;
  workspace_name: string | null;
  bot_id: string | null;
  status: NotionSyncStatus;
  cursor: string | null;
  last_sync_at: Date | null;
  last_error: string | null;
  next_sync_at: Date | null;
  claim: string | null;
  claimed_at: Date | null;
}

export interface SyncedPage {
  pageId: string;
  noteId: string;
  lastEditedTime: string;
}

export interface ConnectionInput {
  userId: string;
  sub: string;
  email: string;
  name: string;
  token: Buffer;
  workspaceId: string | null;
  workspaceName: string | null;
  botId: string | null;
}

/** Every query of the Notion connections; always by user, never across users. */
export const notionRepository = (knex: Knex) => {
  const connections = () => knex<ConnectionRow>('notion_connections');
  /** A run is claimable when none is under way, or the one under way outlived its lease. */
  const claimable = (builder: Knex.QueryBuilder, leaseSeconds: number) =>
    builder
      .whereNot('status', 'syncing')
      .orWhere('claimed_at', '<', knex.raw(`now() - make_interval(secs => ?)`, [leaseSeconds]));

  return {
    find: async (userId: string): Promise<ConnectionRow | undefined> =>
      connections().where({ user_id: userId }).first(),

    pagesSynced: async (userId: string): Promise<number> => {
      const row = await knex('notion_pages')
        .where({ user_id: userId })
        .count<{ count: string }[]>({ count: '*' })
        .first();
      return Number(row?.count ?? 0);
    },

    /**
     * Makes or remakes the user's connection and claims its first run. The cursor survives a
     * new token of the same workspace; another workspace starts from nothing.
     */
    connect: async (input: ConnectionInput, claim: string): Promise<ConnectionRow> =>
      knex.transaction(async (trx) => {
        const before = await trx<ConnectionRow>('notion_connections')
          .where({ user_id: input.userId })
          .forUpdate()
          .first();
        const sameWorkspace = before !== undefined && before.workspace_id === input.workspaceId;
        const row = {
          sub: input.sub,
          email: input.email,
          name: input.name,
          token: input.token,
          workspace_id: input.workspaceId,
          workspace_name: input.workspaceName,
          bot_id: input.botId,
          status: 'syncing' as const,
          cursor: sameWorkspace ? before.cursor : null,
          last_error: null,
          next_sync_at: null,
          claim,
          claimed_at: trx.fn.now(),
          connected_at: trx.fn.now(),
        };
        if (!sameWorkspace && before) {
          await trx('notion_pages').where({ user_id: input.userId }).delete();
        }
        const [saved] = await trx<ConnectionRow>('notion_connections')
          .insert({ user_id: input.userId, ...row } as never)
          .onConflict('user_id')
          .merge(row as never)
          .returning('*');
        return saved as ConnectionRow;
      }),

    /** Claims the user's connection for a run now; undefined when one is under way. */
    claimOne: async (
      userId: string,
      claim: string,
      leaseSeconds: number,
    ): Promise<ConnectionRow | undefined> => {
      const [row] = await connections()
        .where({ user_id: userId })
        .andWhere((builder) => claimable(builder, leaseSeconds))
        .update({ status: 'syncing', claim, claimed_at: knex.fn.now() } as never)
        .returning('*');
      return row as ConnectionRow | undefined;
    },

    /**
     * Claims up to `limit` connections due for a run. One statement: a row another replica
     * claims meanwhile is skipped (SKIP LOCKED) or fails the re-checked condition, so one run
     * of a user at a time, whatever the number of replicas.
     */
    claimDue: async (claim: string, limit: number, leaseSeconds: number) => {
      const due = knex<ConnectionRow>('notion_connections')
        .select('user_id')
        .where((builder) =>
          builder
            .where('next_sync_at', '<=', knex.fn.now())
            .whereNot('status', 'syncing')
            .orWhere((lease) =>
              lease
                .where('status', 'syncing')
                .andWhere(
                  'claimed_at',
                  '<',
                  knex.raw(`now() - make_interval(secs => ?)`, [leaseSeconds]),
                ),
            ),
        )
        .orderBy('next_sync_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      const rows = await connections()
        .whereIn('user_id', due)
        .update({ status: 'syncing', claim, claimed_at: knex.fn.now() } as never)
        .returning('*');
      return rows as ConnectionRow[];
    },

    noteIds: async (userId: string): Promise<Set<string>> =>
      new Set(
        (await knex('notion_pages').where({ user_id: userId }).select('note_id')).map(
          (row: { note_id: string }) => row.note_id,
        ),
      ),

    /**
     * Records how a run ended, and the pages it wrote, only if the run still holds its claim
     * (the connection was not forgotten, remade or taken over meanwhile). Answers whether it did.
     */
    finish: async (
      userId: string,
      claim: string,
      outcome: {
        status: 'idle' | 'failed';
        cursor: string | null;
        lastError: string | null;
        nextSyncAt: Date | null;
        pages: SyncedPage[];
      },
    ): Promise<boolean> =>
      knex.transaction(async (trx) => {
        const updated = await trx('notion_connections').where({ user_id: userId, claim }).update({
          status: outcome.status,
          cursor: outcome.cursor,
          last_error: outcome.lastError,
          last_sync_at: trx.fn.now(),
          next_sync_at: outcome.nextSyncAt,
          claim: null,
          claimed_at: null,
        });
        if (updated === 0) return false;
        for (let at = 0; at < outcome.pages.length; at += 500) {
          await trx('notion_pages')
            .insert(
              outcome.pages.slice(at, at + 500).map((page) => ({
                user_id: userId,
                page_id: page.pageId,
                note_id: page.noteId,
                last_edited_time: page.lastEditedTime,
              })),
            )
            .onConflict(['user_id', 'page_id'])
            .merge(['note_id', 'last_edited_time']);
        }
        return true;
      }),

    /** Forgets the user's connection and its pages (their notes stay). */
    forget: async (userId: string): Promise<void> => {
      await knex.transaction(async (trx) => {
        await trx('notion_pages').where({ user_id: userId }).delete();
        await trx('notion_connections').where({ user_id: userId }).delete();
      });
    },
  };
};

export type NotionRepository = ReturnType<typeof notionRepository>;
