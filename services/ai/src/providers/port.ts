/**
 * The one port every AI provider implements. Features ask what it can do (`models`) and use
 * only that: a capability that is not configured throws AI_MODEL_REQUIRED, never a made-up
 * answer. Adapters: `openai.ts` (any OpenAI-compatible API) and `local.ts` (no network).
 */

export interface ProviderModels {
  /** Chat completions (writing, answers, summaries by a model); null when not configured. */
  chat: string | null;
  /** Always set: the local provider's hashed embeddings when no embedding model is configured. */
  embeddings: string;
  /**
   * A second encoder search fuses with the first, one that embeds a question unlike the
   * passage answering it (the local e5); null when there is none (with a configured embedding
   * model, or the hashed vectors).
   */
  retrieval: string | null;
  transcription: string | null;
  vision: string | null;
}

export interface ChatMessageInput {
  role: 'system' | 'user' | 'assistant';
  /** Text, or text with images (vision: data: URLs) for a user message. */
  content: string | { text: string; imageUrls: string[] };
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** Who the call is for and how it may end: usage is recorded per user; `signal` cancels upstream. */
export interface CallContext {
  userId: string;
  signal?: AbortSignal;
  /** What the call is for, a metric label: writer, askai, summary, chat, generate, vision, index. */
  purpose: string;
}

export interface ChatOptions {
  /** Upper bound of the answer's length. */
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object answer (response_format json_object). */
  json?: boolean;
}

/** What a streamed answer yields: text as it comes, then (once) the usage. */
export type ChatChunk = { type: 'text'; text: string } | { type: 'usage'; usage: Usage };

export interface Embeddings {
  /** One unit-length vector per input, in input order. */
  vectors: Float32Array[];
  model: string;
  usage?: Usage;
}

export interface Transcription {
  text: string;
  model: string;
}

export interface AiProvider {
  readonly name: 'openai' | 'local';
  readonly models: ProviderModels;
  /** Streams a chat completion; throws AI_MODEL_REQUIRED without a chat model. */
  chat(
    messages: ChatMessageInput[],
    options: ChatOptions,
    ctx: CallContext,
  ): AsyncIterable<ChatChunk>;
  /** Embeds texts with `models.embeddings`; vectors have unit length. */
  embed(texts: string[], ctx: CallContext): Promise<Embeddings>;
  /**
   * Embeds texts with `models.retrieval`, as queries or as passages; unit length. Throws
   * AI_MODEL_REQUIRED when it is null.
   */
  embedForRetrieval(
    texts: string[],
    kind: 'query' | 'passage',
    ctx: CallContext,
  ): Promise<Embeddings>;
  /** Transcribes audio; throws AI_MODEL_REQUIRED without a transcription model. */
  transcribe(
    audio: { data: Uint8Array; fileName: string; mimeType: string },
    ctx: CallContext,
  ): Promise<Transcription>;
  close(): Promise<void>;
}

/** Collects a streamed chat answer whole. */
export const chatText = async (
  chunks: AsyncIterable<ChatChunk>,
): Promise<{ text: string; usage?: Usage }> => {
  let text = '';
  let usage: Usage | undefined;
  for await (const chunk of chunks) {
    if (chunk.type === 'text') text += chunk.text;
    else usage = chunk.usage;
  }
  return usage ? { text, usage } : { text };
};
