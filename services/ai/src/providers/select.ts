import type { Logger } from '@noted/kit';
import type { OpenAiSettings } from '../config.js';
import { createLocalProvider } from './local.js';
import { createOpenAiProvider } from './openai.js';
import type { AiProvider, CallContext, Usage } from './port.js';

/**
 * The provider configured: an OpenAI-compatible API when OPENAI_BASE_URL is set (its
 * embeddings fall back to the local model when none is named), else the local provider.
 */
export const createProvider = (options: {
  openai?: OpenAiSettings;
  onUsage: (ctx: CallContext, model: string, usage: Usage) => void;
  logger: Logger;
}): AiProvider => {
  const local = createLocalProvider();
  if (!options.openai) return local;
  return createOpenAiProvider({
    ...options.openai,
    fallbackEmbeddings: local,
    onUsage: options.onUsage,
    logger: options.logger,
  });
};
