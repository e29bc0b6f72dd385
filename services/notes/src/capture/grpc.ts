import { CaptureStep } from '@noted/api';
import type { notesV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import type { ImagesContext } from '../context.js';
import { requireIds } from '../grpc-input.js';
import { noteMessage } from '../notes/presenter.js';
import {
  captureAttach,
  captureComplete,
  captureSource,
  captureStep,
  capturesWaitingRetry,
  kindMessage,
} from './usecases.js';

type CaptureCalls =
  | 'getCapture'
  | 'setCaptureStep'
  | 'attachCaptureFile'
  | 'completeCapture'
  | 'retryWaitingCaptures';

/** The calls the ai service makes while it reads a captured note. */
export const captureGrpc = (
  ctx: ImagesContext,
): Pick<ServiceImpl<typeof notesV1.NotesService>, CaptureCalls> => ({
  getCapture: async ({ userId, noteId }) => {
    requireIds(userId, noteId);
    const source = await captureSource(ctx, userId, noteId);
    return {
      kind: kindMessage[source.state.kind],
      status: source.state.status,
      attempt: source.state.attempt,
      url: source.state.url ?? '',
      data: source.data,
      mimeType: source.mimeType,
      fileName: source.fileName,
      recordingTimeLimit: BigInt(source.recordingLimit),
    };
  },
  setCaptureStep: async ({ userId, noteId, attempt, step }) => {
    requireIds(userId, noteId);
    await captureStep(ctx, userId, noteId, attempt, CaptureStep.parse(step));
    return {};
  },
  attachCaptureFile: async ({ userId, noteId, attempt, data, fileName }) => {
    requireIds(userId, noteId);
    return captureAttach(ctx, userId, noteId, attempt, Buffer.from(data), fileName);
  },
  completeCapture: async (request) => {
    requireIds(request.userId, request.noteId);
    const { note, applied } = await captureComplete(
      ctx,
      request.userId,
      request.noteId,
      request.attempt,
      {
        title: request.title,
        body: request.body,
        tags: request.tags,
        method: request.method,
        model: request.model,
        siteName: request.siteName,
        pages: request.pageCount,
        truncated: request.truncated,
        ...(request.error?.code
          ? { error: { code: request.error.code, message: request.error.message } }
          : {}),
        waitingForModel: request.waitingForModel,
      },
    );
    return { note: noteMessage(note), applied };
  },
  retryWaitingCaptures: async ({ limit }) => ({
    queued: await capturesWaitingRetry(ctx, limit || 100),
  }),
});
