import { AppError, type routes } from '@noted/api';
import { clientAddressOf, type Handlers } from '@noted/kit';
import { presentFeedback, presentReceipt } from './presenter.js';
import {
  feedbackList,
  feedbackScreenshot,
  feedbackSend,
  type FeedbackContext,
} from './usecases.js';

type FeedbackRoutes = Pick<typeof routes, 'feedbackSend' | 'feedbackList' | 'feedbackScreenshot'>;

export const feedbackHandlers = (ctx: FeedbackContext): Handlers<FeedbackRoutes> => ({
  feedbackSend: async ({ body, req, res }) => {
    try {
      const row = await feedbackSend(ctx, body, {
        identity: req.identity,
        address: clientAddressOf(req),
        userAgent: req.get('user-agent'),
      });
      return presentReceipt(row);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') {
        const { retryAfterSeconds } = error.details as { retryAfterSeconds: number };
        res.setHeader('retry-after', String(retryAfterSeconds));
      }
      throw error;
    }
  },
  feedbackList: async ({ query, req }) => {
    const { rows, nextCursor } = await feedbackList(ctx, req.identity, query);
    return { items: rows.map(presentFeedback), nextCursor };
  },
  feedbackScreenshot: async ({ params, req, res }) => {
    const screenshot = await feedbackScreenshot(ctx, req.identity, params.id);
    res
      .status(200)
      .type(screenshot.content_type)
      .set({
        'content-length': String(screenshot.bytes.length),
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      })
      .end(screenshot.bytes);
  },
});
