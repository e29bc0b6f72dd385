import type { AiFeature, AiSettings, AiSettingsUpdate } from '@noted/api';
import { type Parsed } from '@noted/api';
import type { AiContext } from '../context.js';
import { noteForIndex } from '../index/indexer.js';
import { indexRepository } from '../index/repository.js';
import { HASHED_EMBEDDING_MODEL } from '../local/embeddings.js';
import { monthOf, settingsRepository } from './repository.js';

type Mode = AiSettings['features'][AiFeature];

/** How each feature works with the models configured here. */
export const featureModes = (models: AiContext['provider']['models']): Record<AiFeature, Mode> => {
  const byChat = (without: Mode): Mode => (models.chat ? 'model' : without);
  const byEmbeddings: Mode = models.embeddings === HASHED_EMBEDDING_MODEL ? 'extractive' : 'model';
  return {
    writer: byChat('unavailable'),
    askai: byChat('unavailable'),
    summaries: byChat('extractive'),
    search: byEmbeddings,
    related: byEmbeddings,
    chat: byChat('extractive'),
    generate: byChat('extractive'),
    transcription: models.transcription ? 'model' : 'unavailable',
    imageAnalysis: models.vision ? 'model' : 'unavailable',
  };
};

export const aiSettingsGet = async (ctx: AiContext, userId: string): Promise<AiSettings> => {
  const month = monthOf(new Date());
  const { models, name } = ctx.provider;
  const [excludedTags, usage, index, retrievalPending] = await Promise.all([
    settingsRepository.excludedTags(ctx.knex, userId),
    settingsRepository.usage(ctx.knex, userId, month),
    indexRepository.counts(ctx.knex, userId, models.embeddings),
    models.retrieval
      ? indexRepository.countWithoutRetrievalVectors(ctx.knex, models.retrieval, userId)
      : 0,
  ]);
  return {
    provider: name,
    models: {
      chat: models.chat,
      embeddings: models.embeddings,
      retrieval: models.retrieval,
      transcription: models.transcription,
      vision: models.vision,
    },
    features: featureModes(models),
    excludedTags,
    usage: { month, ...usage },
    index: { ...index, retrievalPending },
  };
};

/** Notes read back from the notes service per request when they come back into the index. */
const REINCLUDED_PAGE = 500;

/**
 * Replaces the tags excluded from AI. Notes with a newly excluded tag leave the index at once;
 * notes no longer excluded are read again and indexed before this answers.
 */
export const aiSettingsUpdate = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof AiSettingsUpdate>,
): Promise<AiSettings> => {
  const { excludedTags } = input;
  await ctx.knex.transaction((trx) =>
    settingsRepository.replaceExcludedTags(trx, userId, excludedTags),
  );
  await ctx.indexer.exclude(userId, excludedTags);
  const back = await indexRepository.excludedNotesWithout(ctx.knex, userId, excludedTags);
  for (let start = 0; start < back.length; start += REINCLUDED_PAGE) {
    const notes = await ctx.notes.many(userId, back.slice(start, start + REINCLUDED_PAGE));
    await ctx.indexer.index(notes.map(noteForIndex), { force: true });
  }
  return aiSettingsGet(ctx, userId);
};
