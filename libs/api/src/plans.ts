import * as z from 'zod';
import type { Entitlements } from './users.js';

/** The plans a user can be on. Standard and premium both count as the premium tier. */
export const planNames = ['free', 'standard', 'premium'] as const;
export const PlanName = z.enum(planNames).meta({ id: 'PlanName' });
export type PlanName = z.infer<typeof PlanName>;

export const paidPlanNames = ['standard', 'premium'] as const;
export const PaidPlanName = z.enum(paidPlanNames).meta({ id: 'PaidPlanName' });
export type PaidPlanName = z.infer<typeof PaidPlanName>;

export const billingIntervals = ['month', 'year'] as const;
export const BillingInterval = z.enum(billingIntervals).meta({ id: 'BillingInterval' });
export type BillingInterval = z.infer<typeof BillingInterval>;

/** The spec's tiers: standard and premium are both "premium". */
export const tierOf = (plan: PlanName): 'free' | 'premium' =>
  plan === 'free' ? 'free' : 'premium';

/**
 * The entitlement names the product checks. A number is a limit (-1 or missing is unlimited), a
 * flag is on only when exactly `true` (spec section 5).
 */
export const entitlementNames = {
  /** Notes created per calendar month (UTC), by any route. */
  notesPerMonth: 'notes_per_month',
  /** Longest recording, in seconds (the spec's default 60). */
  recordingTimeLimit: 'recordingTimeLimit',
  /** Writer, Ask AI, knowledge chat, summaries. */
  aiAssist: 'ai_assist',
  exportMarkdown: 'export_markdown',
  exportPdf: 'export_pdf',
  exportImage: 'export_image',
} as const;

const e = entitlementNames;

/**
 * The free plan's limits as a deployment sets them (read by users and billing alike). Their
 * defaults depend on whether the server takes payments: with Stripe, the spec's free plan (100
 * notes a month, a minute of recording, Markdown export only), which a paid plan lifts; without,
 * there is nothing to buy, so nothing is held back: no monthly limit, no recording limit, every
 * export. A limit set here holds either way.
 */
export const freePlanEnvSchema = z.object({
  /** Monthly note creation limit of the free plan; -1 is unlimited. */
  FREE_NOTES_PER_MONTH: z.coerce.number().int().min(-1).optional(),
  /** Recording time limit of the free plan, in seconds; -1 is unlimited. */
  FREE_RECORDING_TIME_LIMIT: z.coerce.number().int().min(-1).optional(),
  /** Whether the free plan exports notes as PDF and as images (paid plans do). */
  FREE_EXPORT_PDF: z.stringbool().optional(),
  FREE_EXPORT_IMAGE: z.stringbool().optional(),
  /**
   * Whether this server takes payments: by default, whether STRIPE_SECRET_KEY is set. The chart
   * sets it for every service, as only billing is given the key.
   */
  PAYMENTS_ENABLED: z.stringbool().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
});

type FreePlanEnv = z.infer<typeof freePlanEnvSchema>;

/** Whether the deployment takes payments, as every service reads it. */
export const paymentsEnabledFrom = (env: FreePlanEnv): boolean =>
  env.PAYMENTS_ENABLED ?? Boolean(env.STRIPE_SECRET_KEY);

export interface FreePlanLimits {
  notesPerMonth: number;
  recordingTimeLimit: number;
  exportPdf?: boolean;
  exportImage?: boolean;
}

export const freePlanFrom = (env: FreePlanEnv): FreePlanLimits => {
  const paid = paymentsEnabledFrom(env);
  return {
    notesPerMonth: env.FREE_NOTES_PER_MONTH ?? (paid ? 100 : -1),
    recordingTimeLimit: env.FREE_RECORDING_TIME_LIMIT ?? (paid ? 60 : -1),
    exportPdf: env.FREE_EXPORT_PDF ?? !paid,
    exportImage: env.FREE_EXPORT_IMAGE ?? !paid,
  };
};

/**
 * Every plan's entitlements: the one place they are decided. The free plan's note and recording
 * limits can be set per deployment (`FREE_NOTES_PER_MONTH`, `FREE_RECORDING_TIME_LIMIT`).
 */
export const planEntitlements = (
  free: FreePlanLimits = freePlanFrom({ PAYMENTS_ENABLED: true }),
): Record<PlanName, Entitlements> => ({
  free: {
    [e.notesPerMonth]: free.notesPerMonth,
    [e.recordingTimeLimit]: free.recordingTimeLimit,
    [e.aiAssist]: true,
    [e.exportMarkdown]: true,
    [e.exportPdf]: free.exportPdf ?? false,
    [e.exportImage]: free.exportImage ?? false,
  },
  standard: {
    [e.notesPerMonth]: 1000,
    [e.recordingTimeLimit]: 600,
    [e.aiAssist]: true,
    [e.exportMarkdown]: true,
    [e.exportPdf]: true,
    [e.exportImage]: true,
  },
  premium: {
    [e.notesPerMonth]: -1,
    [e.recordingTimeLimit]: 3600,
    [e.aiAssist]: true,
    [e.exportMarkdown]: true,
    [e.exportPdf]: true,
    [e.exportImage]: true,
  },
});

/** Spec section 5: passes if the entitlement is missing or -1, else only while usage < limit. */
export const withinLimit = (
  entitlements: Entitlements | null | undefined,
  name: string,
  used: number,
): boolean => {
  if (!entitlements) return false;
  const limit = entitlements[name];
  if (limit === undefined || limit === -1) return true;
  return typeof limit === 'number' && used < limit;
};

/** Spec section 5: a feature is on only when its entitlement is exactly `true`. */
export const hasFeature = (entitlements: Entitlements | null | undefined, name: string): boolean =>
  entitlements?.[name] === true;
