import type { Knex } from 'knex';
import { notesRepository } from './notes/repository.js';
import type { QuotaCharges } from './quota.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ends the charges of notes_per_month that stayed pending for `olderThanSeconds`: a create
 * that died between taking its unit and committing (a crash, a lost answer) left one, and
 * nobody else will give it back. Each is settled if the user has the note (its event is late
 * or was lost) and released if not. Should the note commit after all, its `note.created`
 * charges it again, so the count ends exact either way. Answers what it did.
 */
export const quotaSweep = async (
  ctx: { knex: Knex; quota: QuotaCharges },
  options: { olderThanSeconds: number; batch?: number; isStopped?: () => boolean },
): Promise<{ settled: number; released: number }> => {
  const batch = options.batch ?? 200;
  const done = { settled: 0, released: 0 };
  for (;;) {
    const pending = await ctx.quota.pending('notes_per_month', options.olderThanSeconds, batch);
    const byUser = new Map<string, string[]>();
    for (const { userId, noteId } of pending) {
      byUser.set(userId, [...(byUser.get(userId) ?? []), noteId]);
    }
    for (const [userId, noteIds] of byUser) {
      const existing = new Set(
        await notesRepository.existingIds(
          ctx.knex,
          userId,
          noteIds.filter((id) => UUID.test(id)),
        ),
      );
      const made = noteIds.filter((id) => existing.has(id));
      const never = noteIds.filter((id) => !existing.has(id));
      await ctx.quota.settle(userId, 'notes_per_month', made);
      await ctx.quota.release(userId, 'notes_per_month', never);
      done.settled += made.length;
      done.released += never.length;
    }
    if (pending.length < batch || options.isStopped?.()) return done;
  }
};
