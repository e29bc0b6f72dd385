import type { PlanName, SubscriptionStatus } from '@noted/api';

/** States in which a paid plan is gone, or was never had. */
const ended: SubscriptionStatus['status'][] = ['inactive', 'canceled', 'incomplete_expired'];

/** Whether the user pays for a plan now: a new plan is a change (PUT), not a checkout. */
export const isSubscriber = (subscription: SubscriptionStatus | undefined): boolean =>
  subscription !== undefined &&
  subscription.planName !== 'free' &&
  !ended.includes(subscription.status);

/** The plan the user is on, as the plans are listed: a plan that ended leaves them on free. */
export const currentPlanOf = (subscription: SubscriptionStatus | undefined): PlanName =>
  subscription && isSubscriber(subscription) ? subscription.planName : 'free';

/** Spec: a subscription can be cancelled only if it is active and the plan is not free. */
export const canCancel = (subscription: SubscriptionStatus | undefined): boolean =>
  subscription !== undefined &&
  (subscription.status === 'active' || subscription.status === 'trialing') &&
  subscription.planName !== 'free' &&
  !subscription.cancelAtPeriodEnd;

/** A plan cancelled at the end of its period can still be kept (the same plan, PUT again). */
export const canKeep = (subscription: SubscriptionStatus | undefined): boolean =>
  subscription !== undefined &&
  subscription.cancelAtPeriodEnd &&
  subscription.planName !== 'free' &&
  isSubscriber(subscription);
