import { availableParallelism } from 'node:os';
import * as z from 'zod';
import { allowedAddressesSetting } from '@noted/kit';
import { DEFAULT_SANDBOX, type SandboxSettings } from '@noted/sandbox';
import type { ServiceSettings } from '@noted/service';
import { DEFAULT_USE_MODEL_DIR, missingModelFiles } from './local/use/model-dir.js';
import { DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE, hasE5Model } from './local/e5/model-dir.js';

const optionalText = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

export const DEFAULT_EMBEDDING_THREADS = Math.min(2, availableParallelism());

export const aiConfigSchema = z.object({
  AI_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4103),
  AI_GRPC_ADDR: z.string().default('127.0.0.1:5103'),
  AI_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** The notes service's gRPC address, where note content is read. */
  NOTES_GRPC_ADDR: z.string().default('127.0.0.1:5102'),
  /**
   * Any OpenAI-compatible API (OpenAI, Ollama, vLLM, LM Studio). Unset: the built-in local
   * provider, which needs no network and no model and says what it cannot do.
   */
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_API_KEY: optionalText,
  /** Model names; each feature that needs one it lacks answers AI_MODEL_REQUIRED. */
  OPENAI_CHAT_MODEL: optionalText,
  OPENAI_EMBEDDING_MODEL: optionalText,
  OPENAI_TRANSCRIPTION_MODEL: optionalText,
  OPENAI_VISION_MODEL: optionalText,
  /**
   * The most one request may take, connecting, retries and the whole answer included; a streamed
   * answer has this long for each chunk instead, and OPENAI_STREAM_TIMEOUT_SECONDS in all.
   */
  OPENAI_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  OPENAI_STREAM_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(600),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /**
   * The local provider's embeddings, used when no OPENAI_EMBEDDING_MODEL is set: `use+e5`, the
   * Universal Sentence Encoder multilingual v3 and multilingual-e5-small, both vendored in
   * services/ai/models (loaded in a process of their own on the first embed) and fused by
   * search; `use`, the sentence encoder alone (lighter: e5 takes about 100 MB more and a core
   * while it embeds new notes in the background); or `hashed`, word-hashing vectors that know
   * no meaning (a test double and a last resort for very small machines).
   */
  AI_LOCAL_EMBEDDINGS: z.enum(['use+e5', 'use', 'hashed']).default('use+e5'),
  /** Where the local model's weights.npz and sp.model are; the vendored copy unless set. */
  AI_LOCAL_MODEL_DIR: optionalText,
  /** Where e5's model file (e5-small-q4.bin) is; the vendored copy unless set. */
  AI_LOCAL_E5_MODEL_DIR: optionalText,
  /**
   * Threads the local embedding model runs on, each with its own copy of the model once
   * loaded: two (or one on a single core) so indexing uses both cores of a small machine.
   */
  AI_LOCAL_EMBEDDING_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(DEFAULT_EMBEDDING_THREADS),
  /**
   * Memory for the per-user search indexes kept in this process (least recently used go).
   * One user's 10,000 notes take about 60 MB.
   */
  AI_INDEX_CACHE_MB: z.coerce.number().positive().default(64),
  /** Captured notes (images, audio, links, PDFs) read at once per replica. */
  AI_CAPTURE_WORKERS: z.coerce.number().int().min(1).max(32).default(2),
  /**
   * Local OCR processes per replica, each with one tesseract.js worker (about 100 MB with both
   * languages), started with the first image and ended after two idle minutes.
   */
  AI_OCR_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /**
   * The resident memory of each OCR process: Tesseract, its languages and the image (a 40
   * megapixel photo, shrunk to 8 for reading, peaks near 400 MB); past it the read fails alone.
   */
  AI_OCR_MEMORY_MB: z.coerce.number().int().min(192).max(16_384).default(448),
  /** Private addresses a capture may fetch all the same (tests, local development). */
  CAPTURE_FETCH_ALLOW_ADDRESSES: allowedAddressesSetting,
});

export type AiEnv = z.infer<typeof aiConfigSchema>;

export interface OpenAiSettings {
  baseUrl: string;
  apiKey?: string;
  models: { chat?: string; embeddings?: string; transcription?: string; vision?: string };
  timeoutMs: number;
  streamTimeoutMs: number;
  maxRetries: number;
}

/** The local provider's embeddings: the sentence encoder (and e5 beside it), or hashed vectors. */
export type LocalEmbeddingsSettings =
  | { kind: 'use'; modelDir: string; threads: number; e5ModelDir?: string | undefined }
  | { kind: 'hashed' };

export interface AiConfig extends ServiceSettings {
  notesGrpcAddress: string;
  /** Unset: the local provider. */
  openai?: OpenAiSettings;
  localEmbeddings: LocalEmbeddingsSettings;
  indexCacheBytes: number;
  capture: {
    workers: number;
    ocrWorkers: number;
    ocrMemoryMb: number;
    /** The memory of each process reading a PDF or a web page. */
    sandbox: SandboxSettings;
    allowAddresses: string[];
  };
}

const openAiFrom = (env: AiEnv): OpenAiSettings | undefined => {
  if (!env.OPENAI_BASE_URL) return undefined;
  const models = Object.fromEntries(
    Object.entries({
      chat: env.OPENAI_CHAT_MODEL,
      embeddings: env.OPENAI_EMBEDDING_MODEL,
      transcription: env.OPENAI_TRANSCRIPTION_MODEL,
      vision: env.OPENAI_VISION_MODEL,
    }).filter(([, model]) => model !== undefined),
  );
  return {
    baseUrl: env.OPENAI_BASE_URL,
    ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    models,
    timeoutMs: env.OPENAI_TIMEOUT_SECONDS * 1000,
    streamTimeoutMs: env.OPENAI_STREAM_TIMEOUT_SECONDS * 1000,
    maxRetries: env.OPENAI_MAX_RETRIES,
  };
};

const localEmbeddingsFrom = (env: AiEnv, openai?: OpenAiSettings): LocalEmbeddingsSettings => {
  if (env.AI_LOCAL_EMBEDDINGS === 'hashed') return { kind: 'hashed' };
  const modelDir = env.AI_LOCAL_MODEL_DIR ?? DEFAULT_USE_MODEL_DIR;
  const missing = missingModelFiles(modelDir);
  // Checked only where the model will embed: with an embedding model configured, it never does.
  if (missing.length > 0 && !openai?.models.embeddings) {
    throw new Error(
      `AI_LOCAL_MODEL_DIR: ${modelDir} lacks ${missing.join(' and ')} (or set AI_LOCAL_EMBEDDINGS=hashed)`,
    );
  }
  const use = { kind: 'use' as const, modelDir, threads: env.AI_LOCAL_EMBEDDING_THREADS };
  if (env.AI_LOCAL_EMBEDDINGS === 'use' || openai?.models.embeddings) return use;
  const e5ModelDir = env.AI_LOCAL_E5_MODEL_DIR ?? DEFAULT_E5_MODEL_DIR;
  if (!hasE5Model(e5ModelDir)) {
    throw new Error(
      `AI_LOCAL_E5_MODEL_DIR: ${e5ModelDir} lacks ${E5_MODEL_FILE} (or set AI_LOCAL_EMBEDDINGS=use)`,
    );
  }
  return { ...use, e5ModelDir };
};

export const aiConfigFrom = (
  env: AiEnv,
  shared: Pick<
    ServiceSettings,
    'host' | 'dataDir' | 'internalSecret' | 'pgliteSharedBuffersMb' | 'grpcServer'
  > & { sandbox?: SandboxSettings },
): AiConfig => {
  const openai = openAiFrom(env);
  return {
    httpPort: env.AI_HTTP_PORT,
    grpcAddress: env.AI_GRPC_ADDR,
    databaseUrl: env.AI_DATABASE_URL ?? env.DATABASE_URL,
    notesGrpcAddress: env.NOTES_GRPC_ADDR,
    ...(openai ? { openai } : {}),
    localEmbeddings: localEmbeddingsFrom(env, openai),
    indexCacheBytes: Math.round(env.AI_INDEX_CACHE_MB * 1024 * 1024),
    capture: {
      workers: env.AI_CAPTURE_WORKERS,
      ocrWorkers: env.AI_OCR_WORKERS,
      ocrMemoryMb: env.AI_OCR_MEMORY_MB,
      sandbox: shared.sandbox ?? DEFAULT_SANDBOX,
      allowAddresses: env.CAPTURE_FETCH_ALLOW_ADDRESSES,
    },
    ...shared,
  };
};
