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

  /** Links a user to their Stripe customer; the first link stays. Answers the linked customer. */
  linkCustomer: async (knex: Knex, userId: string, customerId: string): Promise<string> => {
    await knex('customers')
      .insert({ user_id: userId, stripe_customer_id: customerId })
      .onConflict('user_id')
      .ignore();
    return (await subscriptionsRepository.customerOfUser(knex, userId)) ?? customerId;
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
