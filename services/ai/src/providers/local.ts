import { AppError } from '@noted/api';
import type { LocalEmbeddingsSettings } from '../config.js';
import { HASHED_EMBEDDING_MODEL, hashedEmbedding } from '../local/embeddings.js';
import { createUseEmbedder } from '../local/use/embedder.js';
import { USE_MODEL } from '../local/use/model-dir.js';
import type { AiProvider, ChatChunk, Embeddings, Transcription } from './port.js';

interface LocalEmbeddings {
  model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const localEmbeddings = (settings: LocalEmbeddingsSettings): LocalEmbeddings => {
  if (settings.kind === 'hashed') {
    return {
      model: HASHED_EMBEDDING_MODEL,
      embed: (texts) => Promise.resolve(texts.map((text) => hashedEmbedding(text))),
      close: () => Promise.resolve(),
    };
  }
  const embedder = createUseEmbedder({ modelDir: settings.modelDir, threads: settings.threads });
  return { model: USE_MODEL, embed: embedder.embed, close: embedder.close };
};

/**
 * The embedded provider, no network: embeddings by the vendored sentence encoder (or hashed
 * vectors, as `embeddings` says); no chat, no transcription.
 */
export const createLocalProvider = (embeddings: LocalEmbeddingsSettings): AiProvider => {
  const local = localEmbeddings(embeddings);
  return {
    name: 'local',
    models: { chat: null, embeddings: local.model, transcription: null, vision: null },

    // eslint-disable-next-line require-yield -- a stream that ends before its first chunk
    async *chat(): AsyncGenerator<ChatChunk> {
      throw new AppError(
        'AI_MODEL_REQUIRED',
        'Writing and answers need a language model: set OPENAI_BASE_URL and OPENAI_CHAT_MODEL',
      );
    },

    async embed(texts: string[], ctx): Promise<Embeddings> {
      return { vectors: await local.embed(texts, ctx.signal), model: local.model };
    },

    transcribe(): Promise<Transcription> {
      return Promise.reject(
        new AppError(
          'AI_MODEL_REQUIRED',
          'Transcribing audio needs a speech model: set OPENAI_BASE_URL and OPENAI_TRANSCRIPTION_MODEL',
        ),
      );
    },

    close: () => local.close(),
  };
};
