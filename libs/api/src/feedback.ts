import * as z from 'zod';
import { created, file, ok, routesFor } from './contract.js';
import { notBlank } from './rules.js';

export const FeedbackKind = z.enum(['idea', 'problem', 'praise']).meta({ id: 'FeedbackKind' });
export type FeedbackKind = z.infer<typeof FeedbackKind>;

export const FEEDBACK_MESSAGE_MAX_CHARS = 5000;
export const FEEDBACK_PAGE_MAX_CHARS = 300;
/** The largest screenshot, decoded: its data URL is limited to the characters that hold it. */
export const FEEDBACK_SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
/** The media types a screenshot may be, as its bytes (not its data URL) say. */
export const FEEDBACK_SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Base64 of the largest screenshot, and room for the longest `data:<type>;base64,` before it. */
const SCREENSHOT_MAX_CHARS = 100 + 4 * Math.ceil(FEEDBACK_SCREENSHOT_MAX_BYTES / 3);
/** A base64 data URL of any declared type: what it holds is decided by its bytes. */
const DATA_URL = /^data:[A-Za-z0-9_.+-]+\/[A-Za-z0-9_.+-]+;base64,[A-Za-z0-9+/]*={0,2}$/;

export const FeedbackSend = z
  .object({
    kind: FeedbackKind,
    message: notBlank('Write a message').max(FEEDBACK_MESSAGE_MAX_CHARS).trim(),
    email: z
      .email()
      .max(320)
      .optional()
      .meta({
        description:
          'Where to answer, when signed out; a signed-in sender is answered at their account email ' +
          'and this is ignored',
      }),
    page: z
      .string()
      .max(FEEDBACK_PAGE_MAX_CHARS)
      .regex(/^\//, 'a path of this site, starting with /')
      .optional()
      .meta({ description: 'The path the sender was on, such as /notes/…' }),
    screenshot: z
      .string()
      .max(SCREENSHOT_MAX_CHARS, 'a screenshot is at most 2 MB')
      .regex(DATA_URL, 'a data URL: data:image/png;base64,…')
      .optional()
      .meta({
        description:
          'A PNG, JPEG or WebP image of at most 2 MB as a base64 data URL; anything else ' +
          'answers 422 NOT_AN_IMAGE',
      }),
  })
  .meta({ id: 'FeedbackSend' });
export type FeedbackSend = z.input<typeof FeedbackSend>;

export const FeedbackReceipt = z
  .object({ id: z.uuid(), createdAt: z.iso.datetime() })
  .meta({ id: 'FeedbackReceipt' });
export type FeedbackReceipt = z.infer<typeof FeedbackReceipt>;

export const FeedbackItem = z
  .object({
    id: z.uuid(),
    kind: FeedbackKind,
    message: z.string(),
    email: z.string().nullable().meta({ description: "The account's email, or the one given" }),
    userId: z.uuid().nullable().meta({ description: 'The sender, when signed in' }),
    page: z.string().nullable(),
    hasScreenshot: z.boolean(),
    userAgent: z.string().optional(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'FeedbackItem' });
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/**
 * A place in a list of feedback: the milliseconds since 1970 of a feedback's creation and its id.
 * Every cursor of this form is a place the list can start after, so the pattern is the rule.
 */
export const FEEDBACK_CURSOR =
  /^[0-9]{1,13}\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const FeedbackListQuery = z
  .object({
    kind: FeedbackKind.optional(),
    cursor: z
      .string()
      .regex(FEEDBACK_CURSOR, 'Not a cursor of this list')
      .optional()
      .meta({
        description:
          'The nextCursor of the page before: where it ended (the time of its last feedback, ' +
          'in milliseconds, and its id); the page holds what came before',
      }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .meta({ id: 'FeedbackListQuery' });
export type FeedbackListQuery = { kind?: FeedbackKind; cursor?: string; limit?: number };

export const FeedbackList = z
  .object({
    items: z.array(FeedbackItem),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Where the next (older) page starts; null on the last' }),
  })
  .meta({ id: 'FeedbackList' });
export type FeedbackList = z.infer<typeof FeedbackList>;

export const FeedbackIdParams = z.object({ id: z.uuid() });

const feedbackApi = routesFor('users', 'feedback');

/**
 * Product feedback: anyone sends it, operators (the realm role noted-admin) read it, and a
 * signed-in sender reads back their own (the "Download my data" archive holds it).
 */
export const feedbackRoutes = {
  feedbackSend: feedbackApi.post('/api/feedback', {
    summary:
      'Sends an idea, a problem or praise, signed in or not; at most FEEDBACK_PER_USER_PER_HOUR ' +
      'per account and FEEDBACK_PER_IP_PER_HOUR per address an hour',
    auth: 'optional',
    body: FeedbackSend,
    answer: created(FeedbackReceipt, 'The feedback is kept'),
    errors: [
      [422, 'NOT_AN_IMAGE: the screenshot is no PNG, JPEG or WebP image, by its bytes'],
      [429, 'RATE_LIMITED: too much feedback from this account or address this hour (Retry-After)'],
    ],
  }),
  feedbackMine: feedbackApi.get('/api/feedback/mine', {
    summary: 'The feedback you sent signed in, newest first, a page at a time',
    query: FeedbackListQuery,
    answer: ok(FeedbackList, 'One page of your feedback'),
  }),
  feedbackMineScreenshot: feedbackApi.get('/api/feedback/mine/:id/screenshot', {
    summary: 'The screenshot you sent with one feedback',
    params: FeedbackIdParams,
    answer: file(FEEDBACK_SCREENSHOT_TYPES, 'The image'),
    errors: [[404, 'No feedback of yours with this id, or it has no screenshot']],
  }),
  feedbackList: feedbackApi.get('/api/admin/feedback', {
    summary: 'The feedback received, newest first, a page at a time (operators only)',
    query: FeedbackListQuery,
    answer: ok(FeedbackList, 'One page of feedback'),
    errors: [[403, 'FORBIDDEN: the caller does not hold the operator role']],
  }),
  feedbackScreenshot: feedbackApi.get('/api/admin/feedback/:id/screenshot', {
    summary: 'The screenshot sent with one feedback (operators only)',
    params: FeedbackIdParams,
    answer: file(FEEDBACK_SCREENSHOT_TYPES, 'The image'),
    errors: [
      [403, 'FORBIDDEN: the caller does not hold the operator role'],
      [404, 'No such feedback, or it has no screenshot'],
    ],
  }),
};
