import { AppError, type CaptureStep } from '@noted/api';
import { subscribeWorkers, type EventBus } from '@noted/events';
import { startPeriodic, startTimer, toAppError, type Logger } from '@noted/kit';
import { captureEvents } from '@noted/proto';
import type { AiContext } from '../context.js';
import { captureReadDuration, captureReads } from '../metrics.js';
import { outcomeOf, readCapture, type CaptureTools } from './reader.js';

/** The durable consumer: replicas share the captures, and it resumes where it stopped. */
export const CAPTURE_CONSUMER = 'ai-capture';
/** Deliveries before a capture that keeps failing for a passing reason is given up as failed. */
export const CAPTURE_MAX_DELIVER = 5;

const KIND_LABELS = ['unspecified', 'image', 'audio', 'link', 'pdf'] as const;

/**
 * Reads captured notes from `capture.requested`: `workers` at a time per replica (OCR, PDF
 * text and transcription are CPU- or time-heavy; more replicas read more at once). A delivery
 * for an attempt that is no longer the note's (retried, finished, deleted) changes nothing, so
 * redelivery after a crash resumes the reading and a duplicate never writes twice.
 */
export const startCaptureReader = (options: {
  bus: EventBus;
  ctx: AiContext;
  tools: CaptureTools;
  workers: number;
  logger: Logger;
}) => {
  const { ctx, tools, logger } = options;
  return subscribeWorkers(options.bus, {
    name: 'capture reader',
    logger,
    workers: options.workers,
    durable: CAPTURE_CONSUMER,
    subject: captureEvents.requested.subject,
    maxDeliver: CAPTURE_MAX_DELIVER,
    retryDelayMs: 5_000,
    handler: async (message) => {
      const event = captureEvents.requested.decode(message.data);
      const { userId, noteId, attempt } = event;
      const kind = KIND_LABELS[event.kind] ?? 'unspecified';
      let source;
      try {
        source = await ctx.notes.capture(userId, noteId);
      } catch (error) {
        if (toAppError(error).code === 'NOT_FOUND') return; // deleted meanwhile
        throw error;
      }
      if (source.status !== 'processing' || source.attempt !== attempt) return;
      const step = async (next: CaptureStep) => {
        await ctx.notes.captureStep(userId, noteId, attempt, next);
      };
      const finish = (fields: Parameters<AiContext['notes']['completeCapture']>[0]) =>
        ctx.notes.completeCapture({ userId, noteId, attempt, ...fields });
      const elapsed = startTimer();
      try {
        const draft = await readCapture(ctx, tools, userId, noteId, source, step);
        await step('writing');
        await finish({
          title: draft.title,
          body: draft.body,
          tags: draft.tags,
          method: draft.method,
          model: draft.model ?? '',
          siteName: draft.siteName ?? '',
          pageCount: draft.pageCount ?? 0,
          truncated: draft.truncated ?? false,
        });
        captureReads.inc({ kind, outcome: 'ready' });
        captureReadDuration.observe({ kind }, elapsed());
      } catch (error) {
        // Retried or finished elsewhere since this reading began: nothing more to do.
        if (error instanceof AppError && error.code === 'CONFLICT') return;
        const outcome = outcomeOf(error, message.deliveryCount >= CAPTURE_MAX_DELIVER, logger);
        if (outcome.kind === 'retry') {
          captureReads.inc({ kind, outcome: 'retried' });
          throw outcome.error;
        }
        await finish(
          outcome.kind === 'waiting'
            ? { waitingForModel: true, error: outcome.error }
            : { error: outcome.error },
        );
        captureReads.inc({ kind, outcome: outcome.kind });
      }
    },
  });
};

/**
 * With a transcription model configured, captures that waited for one are queued again: at
 * start, then every `intervalMs`, a batch at a time until none wait.
 */
export const startWaitingCaptureRetry = (options: {
  ctx: AiContext;
  logger: Logger;
  intervalMs: number;
}) => {
  const { ctx, logger } = options;
  if (!ctx.provider.models.transcription) return { stop: async () => {} };
  return startPeriodic({
    name: 'queueing captures waiting for a model again',
    intervalMs: options.intervalMs,
    firstDelayMs: 5_000,
    logger,
    run: async (isStopped) => {
      let queued: number;
      do {
        queued = await ctx.notes.retryWaitingCaptures(100);
        if (queued > 0) logger.info({ queued }, 'captures waiting for a model queued again');
      } while (queued === 100 && !isStopped());
    },
  });
};
