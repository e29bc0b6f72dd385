import type { Knex } from 'knex';
import * as z from 'zod';
import { AppError, entitlementNames, type Entitlements, type UserUsage } from '@noted/api';
import { usersRepository } from '../users/repository.js';
import { quotaRepository, type CounterKey } from './repository.js';

export const NOTES_PER_MONTH = entitlementNames.notesPerMonth;

/** What the units of a keyed consumption pay for (note ids), at most this many a call. */
const Refs = z.array(z.string().min(1).max(200)).min(1).max(1000);

const QuotaInput = z.object({
  userId: z.uuid(),
  feature: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/),
  amount: z.int().min(1).max(1_000_000).default(1),
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
  refs: Refs.optional(),
  /** With refs: settled charges go back too (the work came to nothing). */
  refund: z.boolean().default(false),
});

type QuotaInput = z.input<typeof QuotaInput>;

const parseWith = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw new AppError('VALIDATION_FAILED', `Invalid quota request: ${fields.join(', ')}`);
  }
  return parsed.data;
};

const parse = (input: QuotaInput) => parseWith(QuotaInput, input);

/** The month a moment counts against: `YYYY-MM` in UTC. */
export const periodOf = (now: Date): string => now.toISOString().slice(0, 7);

const overQuota = (feature: string) =>
  feature === NOTES_PER_MONTH
    ? new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month')
    : new AppError('FORBIDDEN', `Your plan does not allow more of ${feature} this period`);

const noSuchUser = () => new AppError('NOT_FOUND', 'There is no such user');

/** Takes `amount` within the limit, in one conditional update, or throws why not. */
const take = async (knex: Knex, key: CounterKey, amount: number) => {
  // The counter exists after the first use in a month: one statement in the common case.
  let taken = await quotaRepository.consume(knex, key, amount);
  if (!taken) {
    await quotaRepository.ensureCounter(knex, key);
    taken = await quotaRepository.consume(knex, key, amount);
  }
  if (taken) return taken;
  if (!(await usersRepository.findById(knex, key.userId))) throw noSuchUser();
  throw overQuota(key.feature);
};

const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown }).code === '23503';

/**
 * Takes a unit for each of `refs` not charged already, in one transaction: the pending
 * charges are recorded, then all their units taken with one conditional update; when they do
 * not fit, neither is kept. A ref charged before (pending or settled) costs nothing again.
 */
const consumeFor = async (
  knex: Knex,
  key: CounterKey,
  refs: string[],
): Promise<{ used: number; limit: number; period: string; charged: number }> =>
  knex.transaction(async (trx) => {
    let fresh: string[];
    try {
      fresh = await quotaRepository.reserve(trx, key, refs);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw noSuchUser();
      throw error;
    }
    if (fresh.length > 0) {
      return { ...(await take(trx, key, fresh.length)), period: key.period, charged: fresh.length };
    }
    const user = await usersRepository.findById(trx, key.userId);
    if (!user) throw noSuchUser();
    const period = (await quotaRepository.reservedPeriod(trx, key, refs)) ?? key.period;
    return {
      used: await quotaRepository.used(trx, { ...key, period }),
      limit: limitOf(user.entitlements, key.feature, -1),
      period,
      charged: 0,
    };
  });

/**
 * Takes `amount` of a feature from the user's allowance for the month of `now`, or nothing.
 * It passes when the entitlement is missing or -1, or when usage stays within the limit; a
 * user without entitlements gets nothing. With `refs`, one unit each, pending until settled
 * or released, and never twice for one ref (see `consumeFor`).
 */
export const quotaConsume = async (
  ctx: { knex: Knex },
  input: Omit<QuotaInput, 'period'> & { now?: Date },
): Promise<{ used: number; limit: number; period: string; charged: number }> => {
  const { userId, feature, amount, refs } = parse(input);
  const key: CounterKey = { userId, feature, period: periodOf(input.now ?? new Date()) };
  if (refs) return consumeFor(ctx.knex, key, [...new Set(refs)]);
  return { ...(await take(ctx.knex, key, amount)), period: key.period, charged: amount };
};

/**
 * Gives back what `quotaConsume` took (for its `period`, else the month of `now`). With
 * `refs`, the pending charges of those refs, each in the month it was taken in; a settled one
 * (its note exists) is kept, unless `refund` (its note's capture failed: it costs nothing).
 */
export const quotaRelease = async (
  ctx: { knex: Knex },
  input: QuotaInput & { now?: Date },
): Promise<{ used: number; released?: number }> => {
  const { userId, feature, amount, period, refs, refund } = parse(input);
  const key: CounterKey = { userId, feature, period: period ?? periodOf(input.now ?? new Date()) };
  if (!refs) return { used: await quotaRepository.release(ctx.knex, key, amount) };
  const states = refund ? (['pending', 'settled'] as const) : (['pending'] as const);
  const periods = await quotaRepository.releaseRefs(ctx.knex, key, [...new Set(refs)], states);
  const [latest] = periods.sort((a, b) => (a.period < b.period ? 1 : -1));
  return {
    used: latest?.used ?? (await quotaRepository.used(ctx.knex, key)),
    released: periods.reduce((sum, row) => sum + row.released, 0),
  };
};

const SettleInput = z.object({
  userId: z.uuid(),
  feature: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/),
  refs: Refs,
});

/**
 * The work the charges of `refs` paid for happened: they are final. One released meanwhile
 * (given back by a failure that was not one, or a sweep that came too early) is charged again
 * in its month. Settling twice changes nothing. With `forget` (the notes were deleted), the
 * charges are settled and then forgotten, so a note made again with the same id is charged
 * again, as a new note.
 */
export const quotaSettle = async (
  ctx: { knex: Knex },
  input: z.input<typeof SettleInput> & { forget?: boolean },
): Promise<{ settled: number; recharged: number }> => {
  const { userId, feature, refs } = parseWith(SettleInput, input);
  const key = { userId, feature };
  const unique = [...new Set(refs)];
  return ctx.knex.transaction(async (trx) => {
    const settled = await quotaRepository.settleRefs(trx, key, unique);
    if (input.forget) await quotaRepository.forgetRefs(trx, key, unique);
    return settled;
  });
};

const PendingInput = z.object({
  feature: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/),
  olderThanSeconds: z.int().min(0),
  limit: z.int().min(1).max(1000).default(100),
});

/** Charges of `feature` pending for longer than `olderThanSeconds`, oldest first. */
export const quotaPending = async (
  ctx: { knex: Knex },
  input: z.input<typeof PendingInput> & { now?: Date },
) => {
  const { feature, olderThanSeconds, limit } = parseWith(PendingInput, input);
  const before = new Date((input.now ?? new Date()).getTime() - olderThanSeconds * 1000);
  return quotaRepository.pendingBefore(ctx.knex, feature, before, limit);
};

/**
 * How long a settled or released charge is remembered: a retry or a redelivered event for its
 * ref comes within minutes, and a note id is not charged again while it is remembered.
 */
export const RESERVATION_KEEP_DAYS = 7;

/** Forgets settled and released charges older than RESERVATION_KEEP_DAYS. */
export const quotaReservationsPrune = (ctx: { knex: Knex }, now = new Date()) =>
  quotaRepository.pruneDone(ctx.knex, new Date(now.getTime() - RESERVATION_KEEP_DAYS * 86_400_000));

/** The first moment of the month after `now`'s, in UTC: when monthly counters start again. */
export const nextPeriodStart = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

const limitOf = (entitlements: Entitlements, name: string, fallback: number) => {
  const value = entitlements[name];
  if (value === undefined || value === true) return fallback;
  return typeof value === 'number' ? value : 0;
};

/** The user's use of their plan this month, against their entitlements. */
export const usageOf = async (
  ctx: { knex: Knex },
  userId: string,
  now = new Date(),
): Promise<UserUsage> => {
  const user = await usersRepository.findById(ctx.knex, userId);
  if (!user) throw new AppError('NOT_FOUND', 'There is no such user');
  const period = periodOf(now);
  return {
    period,
    resetsAt: nextPeriodStart(now).toISOString(),
    notes: {
      used: await quotaRepository.used(ctx.knex, { userId, feature: NOTES_PER_MONTH, period }),
      limit: limitOf(user.entitlements, NOTES_PER_MONTH, -1),
    },
    // Spec section 6: the recording time limit is 60 when not set.
    recordingTimeLimit: limitOf(user.entitlements, entitlementNames.recordingTimeLimit, 60),
  };
};
