import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  toFile,
} from 'openai';
import { AppError } from '@noted/api';
import { startTimer, type Logger } from '@noted/kit';
import { aiProviderDuration, aiProviderRequests, aiTokens } from '../metrics.js';
import type {
  AiProvider,
  CallContext,
  ChatChunk,
  ChatMessageInput,
  ChatOptions,
  Embeddings,
  Transcription,
  Usage,
} from './port.js';

export interface OpenAiProviderOptions {
  /** Any OpenAI-compatible API: https://api.openai.com/v1, Ollama's http://host:11434/v1, ... */
  baseUrl: string;
  /** Local servers such as Ollama need none. */
  apiKey?: string;
  models: { chat?: string; embeddings?: string; transcription?: string; vision?: string };
  /**
   * The most one request may take, from connecting to the answer's last byte, its retries and
   * the waits between them included. A streamed answer instead has this long for each chunk
   * (the first included) and `streamTimeoutMs` in all.
   */
  timeoutMs?: number;
  /** The most a streamed answer may take in all. */
  streamTimeoutMs?: number;
  /**
   * Retries on 408, 409, 429, 5xx, timeouts and connection failures, honouring Retry-After,
   * while the request's deadline lasts; never once a stream has started.
   */
  maxRetries?: number;
  /** Embeds when no embedding model is configured (the local hashed model). */
  fallbackEmbeddings: AiProvider;
  onUsage?: (ctx: CallContext, model: string, usage: Usage) => void;
  logger?: Logger;
}

type Operation = 'chat' | 'embed' | 'transcribe';
type Outcome = 'ok' | 'error' | 'cancelled';

/** OpenAI's limit is 2048 inputs per request; smaller batches keep each request well below its token cap. */
const embedBatchSize = 256;

const modelEnv = {
  chat: 'OPENAI_CHAT_MODEL',
  embeddings: 'OPENAI_EMBEDDING_MODEL',
  transcription: 'OPENAI_TRANSCRIPTION_MODEL',
  vision: 'OPENAI_VISION_MODEL',
} as const;

const requireModel = (model: string | undefined, kind: keyof typeof modelEnv): string => {
  if (model) return model;
  throw new AppError(
    'AI_MODEL_REQUIRED',
    `No ${kind} model is configured for the AI provider: set ${modelEnv[kind]}`,
    { capability: kind, variable: modelEnv[kind] },
  );
};

const messageText = (message: ChatMessageInput): string =>
  typeof message.content === 'string' ? message.content : message.content.text;

const hasImages = (message: ChatMessageInput): boolean =>
  typeof message.content !== 'string' && message.content.imageUrls.length > 0;

const toOpenAiMessage = (
  message: ChatMessageInput,
): OpenAI.Chat.Completions.ChatCompletionMessageParam => {
  if (message.role === 'user' && typeof message.content !== 'string') {
    return {
      role: 'user',
      content: [
        { type: 'text', text: message.content.text },
        ...message.content.imageUrls.map((url) => ({
          type: 'image_url' as const,
          image_url: { url },
        })),
      ],
    };
  }
  return { role: message.role, content: messageText(message) };
};

/** Some OpenAI-compatible servers ignore `include_usage`; about four characters per token then. */
const estimateUsage = (messages: ChatMessageInput[], answer: string): Usage => ({
  promptTokens: Math.ceil(messages.reduce((sum, m) => sum + messageText(m).length, 0) / 4),
  completionTokens: Math.ceil(answer.length / 4),
});

/**
 * Settles as the call does, or with the signal's reason once it aborts: the SDK notices an
 * abort only after sleeping out a Retry-After, however long, and the caller must not wait that.
 */
const untilAborted = <T>(call: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void call.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    if (signal.aborted) abort();
  });

const unitVector = (values: ArrayLike<number>): Float32Array => {
  const vector = Float32Array.from(values);
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
};

export const createOpenAiProvider = (options: OpenAiProviderOptions): AiProvider => {
  const host = new URL(options.baseUrl).host;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const streamTimeoutMs = options.streamTimeoutMs ?? 600_000;
  const seconds = (ms: number) => Math.round(ms / 1000);
  // `timeout` is the SDK's per attempt, until the headers; the deadlines below bound the rest.
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || 'not-needed',
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 3,
  });
  const configured = options.models;
  const models = {
    chat: configured.chat || null,
    embeddings: configured.embeddings || options.fallbackEmbeddings.models.embeddings,
    // The local retrieval encoder goes with the local embeddings: fused with another model's
    // vectors it was never measured.
    retrieval: configured.embeddings ? null : options.fallbackEmbeddings.models.retrieval,
    transcription: configured.transcription || null,
    vision: configured.vision || null,
  };

  const record = (operation: Operation, outcome: Outcome, elapsed: () => number) => {
    aiProviderRequests.inc({ provider: 'openai', operation, outcome });
    aiProviderDuration.observe({ provider: 'openai', operation }, elapsed());
  };

  const reportUsage = (ctx: CallContext, model: string, usage: Usage) => {
    const labels = { provider: 'openai', model, purpose: ctx.purpose };
    aiTokens.inc({ ...labels, kind: 'prompt' }, usage.promptTokens);
    aiTokens.inc({ ...labels, kind: 'completion' }, usage.completionTokens);
    options.onUsage?.(ctx, model, usage);
  };

  /**
   * One deadline for a whole request, aborting it with TIMEOUT: the SDK's own timeout stops
   * counting at the headers and starts afresh with each retry. `signal` also carries the caller's.
   */
  const deadline = (operation: Operation, ctx: CallContext) => {
    const expiry = new AbortController();
    const timer = setTimeout(() => {
      expiry.abort(
        new AppError(
          'TIMEOUT',
          `The AI provider at ${host} did not answer within ${seconds(timeoutMs)} s`,
          { operation },
        ),
      );
    }, timeoutMs);
    return {
      expired: expiry.signal,
      signal: ctx.signal ? AbortSignal.any([ctx.signal, expiry.signal]) : expiry.signal,
      clear: () => clearTimeout(timer),
    };
  };

  /**
   * The one place provider failures become AppErrors. An abort by the caller is rethrown as the
   * signal's reason, a passed deadline as its TIMEOUT. Messages and logs carry status and error
   * codes, never prompts or the key.
   */
  const providerError = (
    error: unknown,
    operation: Operation,
    model: string,
    ctx: CallContext,
    expired: AbortSignal,
  ): unknown => {
    if (ctx.signal?.aborted) return ctx.signal.reason ?? error;
    const log = { operation, model, purpose: ctx.purpose, host };
    if (expired.aborted) {
      options.logger?.warn(log, 'AI provider timed out');
      return expired.reason;
    }
    if (error instanceof AppError || error instanceof APIUserAbortError) return error;
    if (error instanceof APIConnectionTimeoutError) {
      options.logger?.warn(log, 'AI provider timed out');
      return new AppError(
        'TIMEOUT',
        `The AI provider at ${host} did not answer within ${seconds(timeoutMs)} s`,
        { operation },
      );
    }
    if (error instanceof APIConnectionError) {
      options.logger?.warn({ ...log, cause: errorName(error.cause) }, 'AI provider unreachable');
      return new AppError('AI_PROVIDER_FAILED', `The AI provider at ${host} could not be reached`, {
        operation,
      });
    }
    if (error instanceof APIError) {
      const details = {
        operation,
        status: error.status ?? null,
        code: error.code ?? null,
        type: error.type ?? null,
      };
      options.logger?.warn({ ...log, ...details }, 'AI provider failed');
      if (error.status === 429) {
        return new AppError(
          'RATE_LIMITED',
          'The AI provider is limiting requests; try again in a moment',
          details,
        );
      }
      if (error.status === 401 || error.status === 403) {
        return new AppError(
          'AI_PROVIDER_FAILED',
          `The AI provider at ${host} refused the API key (${error.status}); check OPENAI_API_KEY`,
          details,
        );
      }
      const status = error.status === undefined ? 'an error' : String(error.status);
      return new AppError(
        'AI_PROVIDER_FAILED',
        `The AI provider at ${host} answered ${status} to ${operation} with model ${model}`,
        details,
      );
    }
    options.logger?.warn({ ...log, error: errorName(error) }, 'AI provider call failed');
    return new AppError(
      'AI_PROVIDER_FAILED',
      `The AI provider at ${host} failed during ${operation}`,
      {
        operation,
      },
    );
  };

  async function* chat(
    messages: ChatMessageInput[],
    chatOptions: ChatOptions,
    ctx: CallContext,
  ): AsyncGenerator<ChatChunk> {
    const model = messages.some(hasImages)
      ? requireModel(configured.vision, 'vision')
      : requireModel(configured.chat, 'chat');
    const elapsed = startTimer();
    // Stays 'cancelled' when the caller stops iterating early; the SDK then aborts the request.
    let outcome: Outcome = 'cancelled';
    let answer = '';
    // The SDK's timeout ends once the answer starts: a stream that stalls, or goes on past its
    // deadline, is cut here.
    const cut = new AbortController();
    const cutAfter = (ms: number, message: string) =>
      setTimeout(() => {
        cut.abort(new AppError('TIMEOUT', message, { operation: 'chat' }));
      }, ms);
    const total = cutAfter(
      streamTimeoutMs,
      `The AI provider at ${host} did not finish its answer within ${seconds(streamTimeoutMs)} s`,
    );
    let idle: NodeJS.Timeout | undefined;
    const awaitNext = () => {
      clearTimeout(idle);
      idle = cutAfter(
        timeoutMs,
        `The AI provider at ${host} sent nothing for ${seconds(timeoutMs)} s`,
      );
    };
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, cut.signal]) : cut.signal;
    try {
      awaitNext();
      const request = client.chat.completions.create(
        {
          model,
          messages: messages.map(toOpenAiMessage),
          stream: true,
          stream_options: { include_usage: true },
          ...(chatOptions.maxTokens === undefined ? {} : { max_tokens: chatOptions.maxTokens }),
          ...(chatOptions.temperature === undefined
            ? {}
            : { temperature: chatOptions.temperature }),
          ...(chatOptions.json ? { response_format: { type: 'json_object' as const } } : {}),
        },
        { signal },
      );
      const stream = await untilAborted(request, signal);
      let usage: Usage | undefined;
      for await (const chunk of stream) {
        awaitNext();
        const text = chunk.choices[0]?.delta?.content;
        if (text) {
          answer += text;
          yield { type: 'text', text };
        }
        if (chunk.usage) {
          usage = {
            promptTokens: chunk.usage.prompt_tokens,
            completionTokens: chunk.usage.completion_tokens,
          };
        }
      }
      // The SDK ends a stream quietly when its signal aborts; the caller must see the abort.
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      if (cut.signal.aborted) throw cut.signal.reason;
      usage ??= estimateUsage(messages, answer);
      reportUsage(ctx, model, usage);
      outcome = 'ok';
      yield { type: 'usage', usage };
    } catch (error) {
      outcome = ctx.signal?.aborted ? 'cancelled' : 'error';
      // A stopped answer was still generated as far as it got: the user is charged for that.
      if (answer) reportUsage(ctx, model, estimateUsage(messages, answer));
      throw providerError(error, 'chat', model, ctx, cut.signal);
    } finally {
      clearTimeout(idle);
      clearTimeout(total);
      record('chat', outcome, elapsed);
    }
  }

  const embedBatch = async (texts: string[], model: string, ctx: CallContext) => {
    const elapsed = startTimer();
    const limit = deadline('embed', ctx);
    try {
      // 'float' explicitly: the SDK's default (base64) is not understood by every compatible server.
      const request = client.embeddings.create(
        { model, input: texts, encoding_format: 'float' },
        { signal: limit.signal },
      );
      const response = await untilAborted(request, limit.signal);
      if (response.data.length !== texts.length) {
        throw new AppError(
          'AI_PROVIDER_FAILED',
          `The AI provider at ${host} returned ${response.data.length} embeddings for ${texts.length} texts`,
          { operation: 'embed' },
        );
      }
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      record('embed', 'ok', elapsed);
      return {
        vectors: ordered.map((item) => unitVector(item.embedding)),
        promptTokens: response.usage?.prompt_tokens ?? 0,
      };
    } catch (error) {
      record('embed', ctx.signal?.aborted ? 'cancelled' : 'error', elapsed);
      throw providerError(error, 'embed', model, ctx, limit.expired);
    } finally {
      limit.clear();
    }
  };

  return {
    name: 'openai',
    models,
    chat,

    embedForRetrieval(texts, kind, ctx) {
      if (models.retrieval === null) {
        return Promise.reject(
          new AppError('AI_MODEL_REQUIRED', 'No retrieval encoder goes with this embedding model'),
        );
      }
      return options.fallbackEmbeddings.embedForRetrieval(texts, kind, ctx);
    },

    async embed(texts: string[], ctx: CallContext): Promise<Embeddings> {
      if (!configured.embeddings) return options.fallbackEmbeddings.embed(texts, ctx);
      const model = configured.embeddings;
      if (texts.length === 0) return { vectors: [], model };
      const vectors: Float32Array[] = [];
      let promptTokens = 0;
      for (let start = 0; start < texts.length; start += embedBatchSize) {
        const batch = await embedBatch(texts.slice(start, start + embedBatchSize), model, ctx);
        vectors.push(...batch.vectors);
        promptTokens += batch.promptTokens;
      }
      const usage = { promptTokens, completionTokens: 0 };
      reportUsage(ctx, model, usage);
      return { vectors, model, usage };
    },

    async transcribe(audio, ctx: CallContext): Promise<Transcription> {
      const model = requireModel(configured.transcription, 'transcription');
      const elapsed = startTimer();
      const limit = deadline('transcribe', ctx);
      try {
        const file = await toFile(audio.data, audio.fileName, { type: audio.mimeType });
        const request = client.audio.transcriptions.create(
          { model, file },
          { signal: limit.signal },
        );
        const result = await untilAborted(request, limit.signal);
        record('transcribe', 'ok', elapsed);
        const usage = result.usage?.type === 'tokens' ? result.usage : undefined;
        reportUsage(ctx, model, {
          promptTokens: usage?.input_tokens ?? 0,
          completionTokens: usage?.output_tokens ?? 0,
        });
        return { text: result.text, model };
      } catch (error) {
        record('transcribe', ctx.signal?.aborted ? 'cancelled' : 'error', elapsed);
        throw providerError(error, 'transcribe', model, ctx, limit.expired);
      } finally {
        limit.clear();
      }
    },

    close: () => options.fallbackEmbeddings.close(),
  };
};

/** Names the cause of a failure for the log (`TypeError > ECONNREFUSED`), never its message. */
const errorName = (error: unknown): string => {
  const names: string[] = [];
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    names.push('code' in cause && cause.code ? String(cause.code) : cause.name);
    cause = cause.cause;
  }
  return names.join(' > ') || typeof error;
};
