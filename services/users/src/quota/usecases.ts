import type { Knex } from 'knex';
import * as z from 'zod';
import { AppError, entitlementNames, type Entitlements, type UserUsage } from '@noted/api';
import { usersRepository } from '../users/repository.js';
import { quotaRepository, type CounterKey } from './repository.js';

export const NOTES_PER_MONTH = entitlementNames.notesPerMonth;

const QuotaInput = z.object({
  userId: z.uuid(),
  feature: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/),
  amount: z.int().min(1).max(1_000_000).default(1),
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
});

type QuotaInput = z.input<typeof QuotaInput>;

const parse = (input: QuotaInput) => {
  const parsed = QuotaInput.safeParse(input);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw new AppError('VALIDATION_FAILED', `Invalid quota request: ${fields.join(', ')}`);
  }
  return parsed.data;
};

/** The month a moment counts against: `YYYY-MM` in UTC. */
export const periodOf = (now: Date): string => now.toISOString().slice(0, 7);

const overQuota = (feature: string) =>
  feature === NOTES_PER_MONTH
    ? new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month')
    : new AppError('FORBIDDEN', `Your plan does not allow more of ${feature} this period`);

/**
 * Takes `amount` of a feature from the user's allowance for the month of `now`, or nothing.
 * It passes when the entitlement is missing or -1, or when usage stays within the limit; a
 * user without entitlements gets nothing.
 */
export const quotaConsume = async (
  ctx: { knex: Knex },
  input: Omit<QuotaInput, 'period'> & { now?: Date },
): Promise<{ used: number; limit: number; period: string }> => {
  const { userId, feature, amount } = parse(input);
  const key: CounterKey = { userId, feature, period: periodOf(input.now ?? new Date()) };
  // The counter exists after the first use in a month: one statement in the common case.
  let taken = await quotaRepository.consume(ctx.knex, key, amount);
  if (!taken) {
    await quotaRepository.ensureCounter(ctx.knex, key);
    taken = await quotaRepository.consume(ctx.knex, key, amount);
  }
  if (taken) return { ...taken, period: key.period };
  if (!(await usersRepository.findById(ctx.knex, userId))) {
    throw new AppError('NOT_FOUND', 'There is no such user');
  }
  throw overQuota(feature);
};

/** Gives back what `quotaConsume` took (for its `period`, else the month of `now`). */
export const quotaRelease = async (
  ctx: { knex: Knex },
  input: QuotaInput & { now?: Date },
): Promise<{ used: number }> => {
  const { userId, feature, amount, period } = parse(input);
  const key: CounterKey = { userId, feature, period: period ?? periodOf(input.now ?? new Date()) };
  return { used: await quotaRepository.release(ctx.knex, key, amount) };
};

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
