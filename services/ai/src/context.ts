import type { Knex } from 'knex';
import { AppError } from '@noted/api';
import type { Logger } from '@noted/kit';
import type { notesV1 } from '@noted/proto';
import type { Indexer } from './index/indexer.js';
import type { NotesClient } from './notes-client.js';
import type { AiProvider } from './providers/port.js';
import type { IndexCache } from './retrieval/cache.js';
import { settingsRepository } from './settings/repository.js';
import type { StreamLimiter } from './sse.js';

/** What every AI use case works with. */
export interface AiContext {
  knex: Knex;
  provider: AiProvider;
  notes: NotesClient;
  indexes: IndexCache;
  indexer: Indexer;
  logger: Logger;
  /** Open streamed answers per user. */
  streams: StreamLimiter;
}

export const excludedTagsOf = async (ctx: AiContext, userId: string) =>
  new Set(await settingsRepository.excludedTags(ctx.knex, userId));

export const isExcluded = (note: { tags: string[] }, excluded: Set<string>) =>
  note.tags.some((tag) => excluded.has(tag));

/**
 * One of the user's notes, to send to a provider: NOT_FOUND when it is not theirs (or gone),
 * AI_EXCLUDED when it carries a tag they excluded from AI.
 */
export const noteForAi = async (
  ctx: AiContext,
  userId: string,
  noteId: string,
): Promise<notesV1.Note> => {
  const [note, excluded] = await Promise.all([
    ctx.notes.get(userId, noteId),
    excludedTagsOf(ctx, userId),
  ]);
  if (!note) throw new AppError('NOT_FOUND', 'No such note');
  if (isExcluded(note, excluded)) {
    throw new AppError(
      'AI_EXCLUDED',
      'This note has a tag you excluded from AI, so it is not sent to an AI provider',
    );
  }
  return note;
};

/** Throws AI_MODEL_REQUIRED up front, before a stream is opened, when there is no chat model. */
export const requireChatModel = (ctx: AiContext, feature: string): string => {
  const model = ctx.provider.models.chat;
  if (!model) {
    throw new AppError(
      'AI_MODEL_REQUIRED',
      `${feature} needs a language model: set OPENAI_BASE_URL and OPENAI_CHAT_MODEL`,
    );
  }
  return model;
};
