import { AppError } from '@noted/api';
import { HASHED_EMBEDDING_MODEL, hashedEmbedding } from '../local/embeddings.js';
import type { AiProvider, ChatChunk, Embeddings, Transcription } from './port.js';

/** The embedded provider: embeddings without network or weights; no chat, no transcription. */
export const createLocalProvider = (): AiProvider => ({
  name: 'local',
  models: { chat: null, embeddings: HASHED_EMBEDDING_MODEL, transcription: null, vision: null },

  // eslint-disable-next-line require-yield -- a stream that ends before its first chunk
  async *chat(): AsyncGenerator<ChatChunk> {
    throw new AppError(
      'AI_MODEL_REQUIRED',
      'Writing and answers need a language model: set OPENAI_BASE_URL and OPENAI_CHAT_MODEL',
    );
  },

  embed(texts: string[]): Promise<Embeddings> {
    return Promise.resolve({
      vectors: texts.map((text) => hashedEmbedding(text)),
      model: HASHED_EMBEDDING_MODEL,
    });
  },

  transcribe(): Promise<Transcription> {
    return Promise.reject(
      new AppError(
        'AI_MODEL_REQUIRED',
        'Transcribing audio needs a speech model: set OPENAI_BASE_URL and OPENAI_TRANSCRIPTION_MODEL',
      ),
    );
  },

  close(): Promise<void> {
    return Promise.resolve();
  },
});
