import type { routes } from '@noted/api';
import type { Response } from 'express';
import { clientAddressOf, type Handlers } from '@noted/kit';
import { presentFeedback, presentReceipt } from './presenter.js';
import type { ScreenshotRow } from './repository.js';
import {
  feedbackList,
  feedbackScreenshot,
  feedbackSend,
  type FeedbackContext,
} from './usecases.js';

type FeedbackRoutes = Pick<
  typeof routes,
  'feedbackSend' | 'feedbackMine' | 'feedbackMineScreenshot' | 'feedbackList' | 'feedbackScreenshot'
>;

/** Sends a screenshot as it was stored, never cached, never sniffed as something else. */
const sendScreenshot = (res: Response, screenshot: ScreenshotRow) => {
  res
    .status(200)
    .type(screenshot.content_type)
    .set({
      'content-length': String(screenshot.bytes.length),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(screenshot.bytes);
};

export const feedbackHandlers = (ctx: FeedbackContext): Handlers<FeedbackRoutes> => ({
  // A refusal's details.retryAfterSeconds leaves as Retry-After (kit's error handler).
  feedbackSend: async ({ body, req }) =>
    presentReceipt(
      await feedbackSend(ctx, body, {
        identity: req.identity,
        address: clientAddressOf(req),
        userAgent: req.get('user-agent'),
      }),
    ),
  feedbackMine: async ({ query, req }) => {
    const { rows, nextCursor } = await feedbackList(ctx, { sender: req.identity }, query);
    return { items: rows.map(presentFeedback), nextCursor };
  },
  feedbackMineScreenshot: async ({ params, req, res }) => {
    sendScreenshot(res, await feedbackScreenshot(ctx, { sender: req.identity }, params.id));
  },
  feedbackList: async ({ query, req }) => {
    const { rows, nextCursor } = await feedbackList(ctx, { operator: req.identity }, query);
    return { items: rows.map(presentFeedback), nextCursor };
  },
  feedbackScreenshot: async ({ params, req, res }) => {
    sendScreenshot(res, await feedbackScreenshot(ctx, { operator: req.identity }, params.id));
  },
});
