import { Counter } from 'prom-client';
import { registry } from '@noted/kit';

export const feedbackReceived = new Counter({
  name: 'noted_feedback_received_total',
  help: 'Feedback kept, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

/** Why feedback was refused: a fixed set of labels. */
export type FeedbackRefusal = 'rate_limited_user' | 'rate_limited_address' | 'not_an_image';

export const feedbackRefused = new Counter({
  name: 'noted_feedback_refused_total',
  help: 'Feedback refused, by reason (too much from one account or address, a screenshot that is no image)',
  labelNames: ['reason'] as const,
  registers: [registry],
});
