import type { Request, Response } from 'express';
import type { AiStreamEvent } from '@noted/api';
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
    res.end();
  }
};
