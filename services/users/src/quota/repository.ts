import type { Knex } from 'knex';

/** One user's counter of one feature in one month. */
export interface CounterKey {
  userId: string;
  feature: string;
  /** `YYYY-MM` in UTC. */
  period: string;
}

/**
 * The user's limit of the feature as SQL: -1 (unlimited) when the entitlement is missing, -1
 * or `true`; 0 when the user has no entitlements object at all or the entitlement is `false`
 * or not a number.
 */
const allowance = `
  select id, case
      when kind is distinct from 'object' then 0
      when entitlement is null then -1
      when jsonb_typeof(entitlement) = 'number' then floor((entitlement #>> '{}')::numeric)
      when entitlement = 'true'::jsonb then -1
      else 0
    end as lim
  from (
    select id, jsonb_typeof(entitlements) as kind, entitlements -> ? as entitlement
    from users where id = ?
  ) as e`;

export const quotaRepository = {
  /** Creates the counter at 0 unless it exists; creates nothing for an unknown user. */
  ensureCounter: async (knex: Knex, key: CounterKey): Promise<void> => {
    await knex.raw(
      `insert into usage_counters (user_id, feature, period)
       select id, ?, ? from users where id = ?
       on conflict do nothing`,
      [key.feature, key.period, key.userId],
    );
  },

  /**
   * Adds `amount` to the counter only if it stays within the user's limit, in one statement:
   * on Postgres under READ COMMITTED a concurrent update of the same counter makes this one
   * wait for it to commit and then re-check `used + amount <= lim` against the new row, so no
   * two callers can both take the last unit. Undefined means nothing was taken.
   */
  consume: async (
    knex: Knex,
    key: CounterKey,
    amount: number,
  ): Promise<{ used: number; limit: number } | undefined> => {
    const { rows } = await knex.raw<{ rows: { used: number; lim: string | number }[] }>(
      `update usage_counters as c
       set used = c.used + ?
       from (${allowance}) as a
       where c.user_id = a.id and c.feature = ? and c.period = ?
         and (a.lim = -1 or c.used + ? <= a.lim)
       returning c.used, a.lim`,
      [amount, key.feature, key.userId, key.feature, key.period, amount],
    );
    const [row] = rows;
    return row ? { used: row.used, limit: Number(row.lim) } : undefined;
  },

  /** Takes `amount` back, never below 0; answers what is used afterwards. */
  release: async (knex: Knex, key: CounterKey, amount: number): Promise<number> => {
    const { rows } = await knex.raw<{ rows: { used: number }[] }>(
      `update usage_counters set used = greatest(used - ?, 0)
       where user_id = ? and feature = ? and period = ?
       returning used`,
      [amount, key.userId, key.feature, key.period],
    );
    return rows[0]?.used ?? 0;
  },

  /**
   * Records a pending charge for each of `refs` not charged before (or whose charge was
   * released, which is taken again, in `key.period`); answers those refs, to be charged now.
   * Two callers reserving one ref at once: the second waits on the key until the first
   * commits, then finds it taken. Refs come sorted, so two batches cannot deadlock.
   */
  reserve: async (trx: Knex.Transaction, key: CounterKey, refs: string[]): Promise<string[]> => {
    const { rows } = await trx.raw<{ rows: { ref: string }[] }>(
      `insert into quota_reservations (user_id, feature, ref, period)
       select ?::uuid, ?::text, ref, ?::text from unnest(?::text[]) as ref
       on conflict (user_id, feature, ref) do update
         set state = 'pending', period = excluded.period, reserved_at = now(), updated_at = now()
         where quota_reservations.state = 'released'
       returning ref`,
      [key.userId, key.feature, key.period, [...refs].sort()],
    );
    return rows.map((row) => row.ref);
  },

  /** The period the latest charge among `refs` that stands (pending or settled) was taken in. */
  reservedPeriod: async (
    db: Knex,
    key: Omit<CounterKey, 'period'>,
    refs: string[],
  ): Promise<string | undefined> => {
    const row = await db('quota_reservations')
      .where({ user_id: key.userId, feature: key.feature })
      .whereIn('ref', refs)
      .whereNot('state', 'released')
      .orderBy('reserved_at', 'desc')
      .first<{ period: string } | undefined>('period');
    return row?.period;
  },

  /**
   * Gives back the pending charges of `refs`, each in its own period, in one statement (a
   * settled charge stays); answers each period touched with what is used afterwards.
   */
  releaseRefs: async (
    db: Knex,
    key: Omit<CounterKey, 'period'>,
    refs: string[],
    /** The states given back: pending, and settled too for a refund. */
    states: readonly ('pending' | 'settled')[] = ['pending'],
  ): Promise<{ period: string; used: number; released: number }[]> => {
    const { rows } = await db.raw<{
      rows: { period: string; used: number; released: number }[];
    }>(
      `with released as (
         update quota_reservations set state = 'released', updated_at = now()
         where user_id = ?::uuid and feature = ?::text and ref = any(?::text[])
           and state = any(?::text[])
         returning period
       ), per_period as (
         select period, count(*)::int as released from released group by period
       )
       update usage_counters as c set used = greatest(c.used - p.released, 0)
       from per_period as p
       where c.user_id = ?::uuid and c.feature = ?::text and c.period = p.period
       returning c.period, c.used, p.released`,
      [key.userId, key.feature, refs, [...states], key.userId, key.feature],
    );
    return rows;
  },

  /**
   * Makes the charges of `refs` final. A pending one only changes state; a released one (its
   * work happened after all) is charged again in its period, whatever the limit. Each step is
   * one conditional update, so a release racing it either comes first (and is undone here)
   * or finds the charge settled (and gives nothing back).
   */
  settleRefs: async (
    trx: Knex.Transaction,
    key: Omit<CounterKey, 'period'>,
    refs: string[],
  ): Promise<{ settled: number; recharged: number }> => {
    const settled = await trx('quota_reservations')
      .where({ user_id: key.userId, feature: key.feature, state: 'pending' })
      .whereIn('ref', refs)
      .update({ state: 'settled', updated_at: trx.fn.now() });
    const { rows } = await trx.raw<{ rows: { recharged: number }[] }>(
      `with recharged as (
         update quota_reservations set state = 'settled', updated_at = now()
         where user_id = ?::uuid and feature = ?::text and ref = any(?::text[])
           and state = 'released'
         returning period
       ), per_period as (
         select period, count(*)::int as recharged from recharged group by period
       ), counted as (
         insert into usage_counters (user_id, feature, period, used)
         select ?::uuid, ?::text, period, recharged from per_period
         on conflict (user_id, feature, period)
           do update set used = usage_counters.used + excluded.used
         returning 1
       )
       select coalesce(sum(recharged), 0)::int as recharged from per_period`,
      [key.userId, key.feature, refs, key.userId, key.feature],
    );
    const recharged = rows[0]?.recharged ?? 0;
    return { settled: settled + recharged, recharged };
  },

  /** Forgets the charges of `refs` (already settled): a ref is charged anew after this. */
  forgetRefs: async (trx: Knex.Transaction, key: Omit<CounterKey, 'period'>, refs: string[]) =>
    trx('quota_reservations')
      .where({ user_id: key.userId, feature: key.feature })
      .whereIn('ref', refs)
      .delete(),

  /** Pending charges of `feature` reserved before `before`, oldest first. */
  pendingBefore: async (db: Knex, feature: string, before: Date, limit: number) =>
    db('quota_reservations')
      .where({ feature, state: 'pending' })
      .andWhere('reserved_at', '<', before)
      .orderBy('reserved_at')
      .limit(limit)
      .select<{ user_id: string; ref: string; period: string; reserved_at: Date }[]>(
        'user_id',
        'ref',
        'period',
        'reserved_at',
      ),

  /** Settled and released charges last changed before `before`, a batch at a time. */
  pruneDone: async (db: Knex, before: Date, batch = 1000): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = await db('quota_reservations')
        .whereIn(
          'ctid',
          db('quota_reservations')
            .select('ctid')
            .whereNot('state', 'pending')
            .andWhere('updated_at', '<', before)
            .limit(batch),
        )
        .delete();
      total += deleted;
      if (deleted < batch) return total;
    }
  },

  /** How much of the feature the user used in the period (0 before the first use). */
  used: async (knex: Knex, key: CounterKey): Promise<number> => {
    const row = await knex('usage_counters')
      .where({ user_id: key.userId, feature: key.feature, period: key.period })
      .first('used');
    return (row?.used as number | undefined) ?? 0;
  },
};
