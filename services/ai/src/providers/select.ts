import type { Logger } from '@noted/kit';
import type { LocalEmbeddingsSettings, OpenAiSettings } from '../config.js';
import { createLocalProvider } from './local.js';
import { createOpenAiProvider } from './openai.js';
import type { AiProvider, CallContext, Usage } from './port.js';

/**
 * The provider configured: an OpenAI-compatible API when OPENAI_BASE_URL is set (its
 * embeddings fall back to the local ones when none is named), else the local provider.
 */
export const createProvider = (options: {
  openai?: OpenAiSettings;
  localEmbeddings: LocalEmbeddingsSettings;
  onUsage: (ctx: CallContext, model: string, usage: Usage) => void;
  logger: Logger;
}): AiProvider => {
  const local = createLocalProvider(options.localEmbeddings);
  if (!options.openai) return local;
  return createOpenAiProvider({
    ...options.openai,
    fallbackEmbeddings: local,
    onUsage: options.onUsage,
    logger: options.logger,
  });
};
