import { AppError } from '@noted/api';
import type { ServiceImpl } from '@noted/grpc';
import { aiV1 } from '@noted/proto';
import type { AiContext } from './context.js';
import { generateNote } from './generate/usecases.js';
import type { Reindexer } from './index/reindex.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const aiGrpc = (
  ctx: AiContext,
  reindexer: Reindexer,
): ServiceImpl<typeof aiV1.AiService> => ({
  generateNote: async (request) => {
    if (!UUID.test(request.userId))
      throw new AppError('VALIDATION_FAILED', 'user_id must be a UUID');
    if (!request.content.trim()) throw new AppError('VALIDATION_FAILED', 'content is empty');
    const source =
      request.source === aiV1.GenerationSource.TRANSCRIPTION ? 'transcription' : 'content';
    const draft = await generateNote(ctx, request.userId, source, request.content);
    return {
      title: draft.title,
      body: draft.note,
      tags: draft.tags,
      method: draft.method,
      model: draft.model ?? '',
    };
  },
  startReindex: async (request) => {
    if (request.userId && !UUID.test(request.userId)) {
      throw new AppError('VALIDATION_FAILED', 'user_id must be a UUID');
    }
    return { progress: reindexer.start(request.userId || undefined) };
  },
  getReindexProgress: async () => ({ progress: reindexer.progress() }),
});
