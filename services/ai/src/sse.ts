import type { Request, Response } from 'express';
import { AppError, type AiStreamEvent } from '@noted/api';
import { streamEvents as streamEventsOf, type Logger } from '@noted/kit';

export type Send = (event: AiStreamEvent) => void;

/**
 * Answers with server-sent events (kit's streamEvents): `work` sends events as it goes and ends
 * with `done`. When the client goes away, `signal` aborts, which cancels the provider's request
 * upstream. A failure after the stream opened is sent as an `error` event.
 */
export const streamEvents = (
  req: Request,
  res: Response,
  logger: Logger,
  work: (send: Send, signal: AbortSignal) => Promise<void>,
  release?: () => void,
): Promise<void> => streamEventsOf<AiStreamEvent>(req, res, logger, work, release);

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
