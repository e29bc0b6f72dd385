import type Stripe from 'stripe';
import {
  billingIntervals,
  planEntitlements,
  planNames,
  tierOf,
  type BillingInterval,
  type Entitlements,
  type FreePlanLimits,
  type PaidPlanName,
  type Plan,
  type PlanName,
  type PlanPrice,
} from '@noted/api';
import type { Logger } from '@noted/kit';
import type { PriceIds } from './config.js';
import { callStripe } from './stripe.js';

/** Prices change rarely; their amounts are read from Stripe and kept this long. */
const PRICE_CACHE_MS = 10 * 60_000;

export interface PlanCatalogue {
  entitlements: Record<PlanName, Entitlements>;
  /** The configured price of a paid plan and interval. */
  priceId(plan: PaidPlanName, interval: BillingInterval): string | undefined;
  /** Which plan and interval a Stripe price is; undefined for a price that is not ours. */
  planOfPrice(priceId: string): { plan: PaidPlanName; interval: BillingInterval } | undefined;
  /** The plans with their prices as Stripe has them (amounts cached). */
  list(): Promise<Plan[]>;
  /** The trial a price gives, in days. */
  trialDays(priceId: string): Promise<number | null>;
}

export const createPlanCatalogue = (options: {
  free: FreePlanLimits;
  prices: PriceIds;
  stripe: Stripe | undefined;
  logger: Logger;
}): PlanCatalogue => {
  const entitlements = planEntitlements(options.free);
  const byPrice = new Map(
    Object.entries(options.prices).map(([key, id]) => {
      const [plan, interval] = key.split(':') as [PaidPlanName, BillingInterval];
      return [id, { plan, interval }];
    }),
  );
  const cache = new Map<string, { at: number; price: Promise<Stripe.Price | undefined> }>();

  const priceOf = (id: string): Promise<Stripe.Price | undefined> => {
    const cached = cache.get(id);
    if (cached && Date.now() - cached.at < PRICE_CACHE_MS) return cached.price;
    const stripe = options.stripe;
    const price = stripe
      ? callStripe(() => stripe.prices.retrieve(id)).catch((error: unknown) => {
          options.logger.warn({ err: error, price: id }, 'a plan price could not be read');
          cache.delete(id);
          return undefined;
        })
      : Promise.resolve(undefined);
    cache.set(id, { at: Date.now(), price });
    return price;
  };

  const trialOf = (price: Stripe.Price | undefined) => price?.recurring?.trial_period_days ?? null;

  const priceFor = async (plan: PaidPlanName, interval: BillingInterval) => {
    const id = options.prices[`${plan}:${interval}`];
    if (!id) return [];
    const price = await priceOf(id);
    const shown: PlanPrice = {
      interval,
      amount: price?.unit_amount ?? null,
      currency: price?.currency ?? 'usd',
      trialDays: trialOf(price),
    };
    return [shown];
  };

  return {
    entitlements,
    priceId: (plan, interval) => options.prices[`${plan}:${interval}`],
    planOfPrice: (priceId) => byPrice.get(priceId),
    trialDays: async (priceId) => trialOf(await priceOf(priceId)),
    list: () =>
      Promise.all(
        planNames.map(async (name) => ({
          name,
          tier: tierOf(name),
          entitlements: entitlements[name],
          prices:
            name === 'free'
              ? []
              : (
                  await Promise.all(
                    billingIntervals.map((interval) => priceFor(name as PaidPlanName, interval)),
                  )
                ).flat(),
        })),
      ),
  };
};
