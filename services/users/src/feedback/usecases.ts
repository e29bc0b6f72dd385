import { createHmac, randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Knex } from 'knex';
import { AppError, type FeedbackListQuery, type FeedbackSend, type Parsed } from '@noted/api';
import { enqueueEvent, outboxEvent, type UnitOfWork } from '@noted/db';
import { OPERATOR_ROLE, addressGroup, hasRole, sniffImage, type Identity } from '@noted/kit';
import { feedbackEvents, userEventHeaders } from '@noted/proto';
import type { FeedbackLimits } from '../config.js';
import { feedbackReceived, feedbackRefused } from './metrics.js';
import { feedbackRepository, type FeedbackListed, type FeedbackRow } from './repository.js';

export interface FeedbackContext {
  knex: Knex;
  unitOfWork: UnitOfWork;
  feedbackLimits: FeedbackLimits;
  /** Keys the hash of a sender's address, so the stored hash cannot be reversed by trying addresses. */
  internalSecret: string;
}

export interface FeedbackSender {
  /** The signed-in sender; undefined when signed out. */
  identity: Identity | undefined;
  /** The client's address, as the gateway saw it. */
  address: string;
  userAgent: string | undefined;
}

const SCREENSHOT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const USER_AGENT_MAX_CHARS = 500;

/**
 * The image a data URL holds, by its bytes; anything but PNG, JPEG or WebP is refused. Its size
 * is the schema's: the data URL's length bounds the bytes, so what the document allows is taken.
 */
const screenshotOf = (dataUrl: string) => {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const format = sniffImage(bytes);
  if (format !== 'png' && format !== 'jpeg' && format !== 'webp') {
    feedbackRefused.inc({ reason: 'not_an_image' });
    throw new AppError('NOT_AN_IMAGE', 'The screenshot is not a PNG, JPEG or WebP image');
  }
  return { content_type: SCREENSHOT_TYPES[format], bytes };
};

const addressHash = (ctx: FeedbackContext, address: string) =>
  createHmac('sha256', ctx.internalSecret)
    .update(`feedback-address:${addressGroup(address)}`)
    .digest('base64url');

const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', message, { retryAfterSeconds: Math.max(1, retryAfterSeconds) });

/**
 * Keeps one feedback, counted against its sender: the account (signed in) and the address
 * (always), each per hour. The counts are the rows themselves, read under a lock per sender,
 * so they hold across replicas and restarts. Announces `feedback.received` in the same commit.
 */
export const feedbackSend = async (
  ctx: FeedbackContext,
  body: Parsed<typeof FeedbackSend>,
  sender: FeedbackSender,
): Promise<FeedbackRow> => {
  const screenshot = body.screenshot ? screenshotOf(body.screenshot) : undefined;
  const userId = sender.identity?.userId;
  const hash = addressHash(ctx, sender.address);
  const { perUserPerHour, perIpPerHour } = ctx.feedbackLimits;
  const row = await ctx.unitOfWork(async (trx) => {
    await feedbackRepository.lockSenders(trx, [
      `feedback:address:${hash}`,
      ...(userId ? [`feedback:user:${userId}`] : []),
    ]);
    if (userId && perUserPerHour > 0) {
      const sent = await feedbackRepository.sentLastHour(trx, { user_id: userId });
      if (sent.count >= perUserPerHour) {
        feedbackRefused.inc({ reason: 'rate_limited_user' });
        throw rateLimited(
          `At most ${perUserPerHour} feedback an hour from one account: try again in ${sent.freeInSeconds} seconds`,
          sent.freeInSeconds,
        );
      }
    }
    if (perIpPerHour > 0) {
      const sent = await feedbackRepository.sentLastHour(trx, { address_hash: hash });
      if (sent.count >= perIpPerHour) {
        feedbackRefused.inc({ reason: 'rate_limited_address' });
        throw rateLimited(
          `At most ${perIpPerHour} feedback an hour from one address: try again in ${sent.freeInSeconds} seconds`,
          sent.freeInSeconds,
        );
      }
    }
    const inserted = await feedbackRepository.insert(
      trx,
      {
        id: randomUUID(),
        kind: body.kind,
        message: body.message,
        // Signed in, the answer goes to the account's address, not to one typed in the form.
        email: sender.identity ? sender.identity.email || null : (body.email ?? null),
        user_id: userId ?? null,
        page: body.page ?? null,
        user_agent: sender.userAgent?.slice(0, USER_AGENT_MAX_CHARS) || null,
        address_hash: hash,
      },
      screenshot,
    );
    await enqueueEvent(
      trx,
      outboxEvent(
        feedbackEvents.received,
        (eventId) => ({
          eventId,
          occurredAt: timestampFromDate(inserted.created_at),
          feedbackId: inserted.id,
          kind: inserted.kind,
          userId: userId ?? '',
          hasScreenshot: screenshot !== undefined,
        }),
        userId ? userEventHeaders(userId) : undefined,
      ),
    );
    return inserted;
  });
  feedbackReceived.inc({ kind: row.kind });
  return row;
};

const requireOperator = (identity: Identity | undefined) => {
  if (!hasRole(identity, OPERATOR_ROLE)) {
    throw new AppError('FORBIDDEN', 'Only operators can read feedback');
  }
};

/** A page's cursor: where it ended, as FEEDBACK_CURSOR states it. */
const cursorOf = (row: FeedbackRow) => `${row.created_at.getTime()}.${row.id}`;

/** Where a cursor the schema took starts the page (the schema is its one check). */
const positionOf = (cursor: string): { createdAt: Date; id: string } => {
  const [at = '', id = ''] = cursor.split('.');
  return { createdAt: new Date(Number(at)), id };
};

/** Whose feedback a reader reads: every sender's (an operator) or their own. */
type Reader = { operator: Identity | undefined } | { sender: Identity | undefined };

/** The sender whose feedback is read, or undefined for all of it; refuses who may not read. */
const senderOf = (reader: Reader): string | undefined => {
  if ('operator' in reader) {
    requireOperator(reader.operator);
    return undefined;
  }
  if (!reader.sender?.userId) {
    throw new AppError('UNAUTHENTICATED', 'Sign in to read your feedback');
  }
  return reader.sender.userId;
};

/** One page of feedback, newest first: all of it for an operator, a sender's own for them. */
export const feedbackList = async (
  ctx: Pick<FeedbackContext, 'knex'>,
  reader: Reader,
  query: Parsed<typeof FeedbackListQuery>,
): Promise<{ rows: FeedbackListed[]; nextCursor: string | null }> => {
  const userId = senderOf(reader);
  const before = query.cursor ? positionOf(query.cursor) : undefined;
  const rows = await feedbackRepository.page(ctx.knex, {
    ...(userId ? { userId } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(before ? { before } : {}),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > query.limit && last ? cursorOf(last) : null };
};

/** The screenshot of one feedback: any for an operator, a sender's own for them. */
export const feedbackScreenshot = async (
  ctx: Pick<FeedbackContext, 'knex'>,
  reader: Reader,
  feedbackId: string,
) => {
  const userId = senderOf(reader);
  const screenshot = await feedbackRepository.screenshot(ctx.knex, feedbackId, userId);
  if (!screenshot) throw new AppError('NOT_FOUND', 'There is no such screenshot');
  return screenshot;
};
