import type { Knex } from 'knex';
import type { BillingInterval, PlanName, SubscriptionStatusName } from '@noted/api';

export interface SubscriptionRow {
  user_id: string;
  stripe_subscription_id: string;
  stripe_customer_id: string;
  plan: PlanName;
  interval: BillingInterval | null;
  price_id: string;
  status: SubscriptionStatusName;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  trial_end: Date | null;
  synced_at: Date;
  updated_at: Date;
}

export interface CustomerLink {
  user_id: string;
  stripe_customer_id: string;
}

export interface CheckoutSessionRow {
  id: string;
  user_id: string;
  plan: string;
  interval: string;
  created_at: Date;
  completed_at: Date | null;
}

export const subscriptionsRepository = {
  ofUser: (knex: Knex, userId: string) =>
    knex<SubscriptionRow>('subscriptions').where({ user_id: userId }).first(),

  /**
   * The user's row, after taking a lock on the user that lasts until the transaction ends (a
   * row lock would not cover a user who has no row yet), so changes of one user apply one at a
   * time.
   */
  lockOfUser: async (trx: Knex.Transaction, userId: string) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`noted:billing:${userId}`]);
    return trx<SubscriptionRow>('subscriptions').where({ user_id: userId }).first();
  },

  save: async (trx: Knex.Transaction, row: Omit<SubscriptionRow, 'updated_at'>) => {
    await trx<SubscriptionRow>('subscriptions')
      .insert({ ...row, updated_at: new Date() })
      .onConflict('user_id')
      .merge();
  },

  customerOfUser: async (knex: Knex, userId: string): Promise<string | undefined> => {
    const row = await knex('customers').where({ user_id: userId }).first('stripe_customer_id');
    return row?.stripe_customer_id as string | undefined;
  },

  userOfCustomer: async (knex: Knex, customerId: string): Promise<string | undefined> => {
    const row = await knex('customers').where({ stripe_customer_id: customerId }).first('user_id');
    return row?.user_id as string | undefined;
  },

  /**
   * Links a user to a Stripe customer unless either is linked already (a user has one customer,
   * a customer one user; the first link stays). Answers whether this pair is the link now, and
   * otherwise the links in the way; never fails on either unique constraint, even when racing.
   */
  linkCustomer: async (
    knex: Knex,
    userId: string,
    customerId: string,
  ): Promise<{ linked: true } | { linked: false; clash: CustomerLink[] }> => {
    await knex('customers')
      .insert({ user_id: userId, stripe_customer_id: customerId })
      .onConflict()
      .ignore();
    const links: CustomerLink[] = await knex('customers')
      .where({ user_id: userId })
      .orWhere({ stripe_customer_id: customerId })
      .select('user_id', 'stripe_customer_id');
    const clash = links.filter(
      (link) => link.user_id !== userId || link.stripe_customer_id !== customerId,
    );
    return clash.length === 0 && links.length === 1 ? { linked: true } : { linked: false, clash };
  },

  /** Removes a user's link to a customer Stripe no longer has (only that link, if it still is). */
  unlinkCustomer: async (knex: Knex, userId: string, customerId: string) => {
    await knex('customers').where({ user_id: userId, stripe_customer_id: customerId }).delete();
  },

  /** The user another user's subscription is stored for, if it is (the id is unique). */
  holderOfSubscription: async (knex: Knex, subscriptionId: string): Promise<string | undefined> => {
    const row = await knex('subscriptions')
      .where({ stripe_subscription_id: subscriptionId })
      .first('user_id');
    return row?.user_id as string | undefined;
  },

  recordCheckout: async (
    knex: Knex,
    row: Pick<CheckoutSessionRow, 'id' | 'user_id' | 'plan' | 'interval'>,
  ) => {
    await knex('checkout_sessions').insert(row).onConflict('id').ignore();
  },

  checkoutOfUser: (knex: Knex, id: string, userId: string) =>
    knex<CheckoutSessionRow>('checkout_sessions').where({ id, user_id: userId }).first(),

  checkoutCompleted: async (knex: Knex, id: string, at: Date) => {
    await knex('checkout_sessions').where({ id }).whereNull('completed_at').update({
      completed_at: at,
    });
  },

  /** Records a Stripe event as applied; false when it already was. */
  markEvent: async (trx: Knex.Transaction, id: string, type: string): Promise<boolean> => {
    const inserted = await trx('stripe_events')
      .insert({ id, type })
      .onConflict('id')
      .ignore()
      .returning('id');
    return inserted.length > 0;
  },

  eventSeen: async (knex: Knex, id: string): Promise<boolean> =>
    (await knex('stripe_events').where({ id }).first('id')) !== undefined,
};
