import { AppError } from '@noted/api';
import type { LocalEmbeddingsSettings } from '../config.js';
import { HASHED_EMBEDDING_MODEL, hashedEmbedding } from '../local/embeddings.js';
import { E5_MODEL } from '../local/e5/model-dir.js';
import { createLocalEmbedder } from '../local/host/embedder.js';
import { USE_MODEL } from '../local/use/model-dir.js';
import type { AiProvider, ChatChunk, Embeddings, Transcription } from './port.js';

interface LocalEmbeddings {
  model: string;
  retrievalModel: string | null;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  embedForRetrieval(
    texts: string[],
    kind: 'query' | 'passage',
    signal?: AbortSignal,
  ): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const noRetrievalEncoder = () =>
  Promise.reject(
    new AppError('AI_MODEL_REQUIRED', 'The local retrieval encoder is off (AI_LOCAL_EMBEDDINGS)'),
  );

const localEmbeddings = (settings: LocalEmbeddingsSettings): LocalEmbeddings => {
  if (settings.kind === 'hashed') {
    return {
      model: HASHED_EMBEDDING_MODEL,
      retrievalModel: null,
      embed: (texts) => Promise.resolve(texts.map((text) => hashedEmbedding(text))),
      embedForRetrieval: noRetrievalEncoder,
      close: () => Promise.resolve(),
    };
  }
  const embedder = createLocalEmbedder({
    use: { modelDir: settings.modelDir, threads: settings.threads },
    e5: settings.e5ModelDir ? { modelDir: settings.e5ModelDir } : undefined,
  });
  return {
    model: USE_MODEL,
    retrievalModel: settings.e5ModelDir ? E5_MODEL : null,
    embed: embedder.embed,
    embedForRetrieval: settings.e5ModelDir ? embedder.embedForRetrieval : noRetrievalEncoder,
    close: embedder.close,
  };
};

/**
 * The embedded provider, no network: embeddings by the vendored sentence encoder and e5 (or
 * hashed vectors, as `embeddings` says); no chat, no transcription.
 */
export const createLocalProvider = (embeddings: LocalEmbeddingsSettings): AiProvider => {
  const local = localEmbeddings(embeddings);
  return {
    name: 'local',
    models: {
      chat: null,
      embeddings: local.model,
      retrieval: local.retrievalModel,
      transcription: null,
      vision: null,
    },

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

    async embedForRetrieval(texts, kind, ctx): Promise<Embeddings> {
      const vectors = await local.embedForRetrieval(texts, kind, ctx.signal);
      return { vectors, model: local.retrievalModel ?? '' };
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
