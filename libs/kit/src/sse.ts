import type { Request, Response } from 'express';
import { toAppError } from './http.js';
import type { Logger } from './logger.js';

/** The event a stream ends with when its work fails after the stream opened. */
export interface StreamErrorEvent {
  type: 'error';
  error: { code: string; message: string };
}

/**
 * Answers with server-sent events (`event: <type>`, `data: <the event as JSON>`): `work` sends
 * events as it goes and ends with its own `done`. When the client goes away, `signal` aborts,
 * so the work stops. A failure after the stream opened is sent as an `error` event (the status
 * is already 200); `@noted/api`'s client reads such streams.
 */
export const streamEvents = async <E extends { type: string }>(
  req: Request,
  res: Response,
  logger: Logger,
  work: (send: (event: E) => void, signal: AbortSignal) => Promise<void>,
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
  const send = (event: E | StreamErrorEvent) => {
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
