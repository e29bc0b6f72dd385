import type { Request, Response } from 'express';
import { AppError, type AiStreamEvent } from '@noted/api';
import { toAppError, type Logger } from '@noted/kit';

export type Send = (event: AiStreamEvent) => void;

/**
 * Answers with server-sent events: `work` sends events as it goes and ends with `done`.
 * When the client goes away, `signal` aborts, which cancels the provider's request upstream.
 * A failure after the stream opened is sent as an `error` event (the status is already 200).
 */
export const streamEvents = async (
  req: Request,
  res: Response,
  logger: Logger,
  work: (send: Send, signal: AbortSignal) => Promise<void>,
  release: () => void = () => {},
): Promise<void> => {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the stream'));
  });
  res.status(200).set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const send: Send = (event) => {
    if (!res.writableEnded) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  try {
    await work(send, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) {
      logger.info({ requestId: req.id }, 'stream cancelled by the client');
    } else {
      const appError = toAppError(error);
      if (appError.status >= 500) logger.error({ err: error, requestId: req.id }, 'stream failed');
      send({ type: 'error', error: { code: appError.code, message: appError.message } });
    }
  } finally {
    release();
    res.end();
  }
};

/** Streamed answers one user may have open at once in one process. */
export const STREAMS_PER_USER = 4;

/**
 * Counts each user's open streams: a client that opens answer after answer without waiting
 * (each one a model's time, and money) is refused with RATE_LIMITED beyond the limit.
 */
export const createStreamLimiter = (limit = STREAMS_PER_USER) => {
  const open = new Map<string, number>();
  return {
    /** Takes a place for the user, or throws; the returned function gives it back. */
    acquire: (userId: string): (() => void) => {
      const count = open.get(userId) ?? 0;
      if (count >= limit) {
        throw new AppError(
          'RATE_LIMITED',
          `At most ${limit} answers can be written for you at once; wait for one to finish`,
        );
      }
      open.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(userId) ?? 1) - 1;
        if (left > 0) open.set(userId, left);
        else open.delete(userId);
      };
    },
  };
};

export type StreamLimiter = ReturnType<typeof createStreamLimiter>;
