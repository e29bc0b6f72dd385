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

  /** How much of the feature the user used in the period (0 before the first use). */
  used: async (knex: Knex, key: CounterKey): Promise<number> => {
    const row = await knex('usage_counters')
      .where({ user_id: key.userId, feature: key.feature, period: key.period })
      .first('used');
    return (row?.used as number | undefined) ?? 0;
  },
};
