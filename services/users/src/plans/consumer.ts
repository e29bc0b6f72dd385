import type { Knex } from 'knex';
import { subscribeWorkers, type EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { billingEvents, entitlementsFromMessage } from '@noted/proto';
import { usersRepository } from '../users/repository.js';

/** The durable consumer: replicas share it, and it resumes where it stopped. */
export const PLAN_CHANGES_CONSUMER = 'users-plan-changes';

/**
 * Keeps each user's entitlements on the plan billing announces, so the note quota and the
 * recording limit follow a purchase, a change or a cancellation within seconds. An event older
 * than the last one applied (delivered late or twice) changes nothing; a downgrade keeps the
 * user's notes and only limits what they create next.
 */
export const startPlanChanges = (options: { bus: EventBus; knex: Knex; logger: Logger }) =>
  subscribeWorkers(options.bus, {
    name: 'plan changes',
    logger: options.logger,
    workers: 4,
    durable: PLAN_CHANGES_CONSUMER,
    subject: billingEvents.subscriptionChanged.subject,
    handler: async (message) => {
      const { subscription, version } = billingEvents.subscriptionChanged.decode(message.data);
      if (!subscription) return;
      const applied = await usersRepository.applyPlan(options.knex, subscription.userId, {
        plan: subscription.plan,
        entitlements: entitlementsFromMessage(subscription.entitlements),
        version,
      });
      options.logger.info(
        { userId: subscription.userId, plan: subscription.plan, applied },
        'plan change',
      );
    },
  });
