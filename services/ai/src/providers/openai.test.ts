import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeEmbedding, startFakeOpenAi, type FakeOpenAi } from '@noted/testing';
import type { Logger } from '@noted/kit';
import { aiProviderRequests, aiTokens } from '../metrics.js';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai.js';
import { chatText, type AiProvider, type CallContext, type ChatChunk, type Usage } from './port.js';

const apiKey = 'sk-test-secret-key';
const ctx: CallContext = { userId: 'user-1', purpose: 'writer' };
const allModels = {
  chat: 'gpt-chat',
  embeddings: 'text-embed',
  transcription: 'whisper-test',
  vision: 'gpt-vision',
};

/** Stands in for the local hashed embeddings: the adapter only hands texts to it. */
const fallbackEmbeddings = (): AiProvider & { embedded: string[][] } => {
  const embedded: string[][] = [];
  return {
    name: 'local',
    embedded,
    models: {
      chat: null,
      embeddings: 'local-hashed',
      retrieval: null,
      transcription: null,
      vision: null,
    },
    chat: () => {
      throw new Error('not used');
    },
    embedForRetrieval: () => {
      throw new Error('not used');
    },
    embed: async (texts) => {
      embedded.push(texts);
      return { vectors: texts.map(() => Float32Array.from([1, 0])), model: 'local-hashed' };
    },
    transcribe: async () => {
      throw new Error('not used');
    },
    close: async () => {},
  };
};

const collect = async (chunks: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> => {
  const all: ChatChunk[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
};

const norm = (vector: Float32Array) => Math.hypot(...vector);
const distance = (a: Float32Array, b: number[]) =>
  Math.max(...Array.from(a, (value, i) => Math.abs(value - b[i]!)));

describe('OpenAI provider adapter', () => {
  let fake: FakeOpenAi;
  let usage: { ctx: CallContext; model: string; usage: Usage }[];
  let logLines: string[];

  const provider = (overrides: Partial<OpenAiProviderOptions> = {}) =>
    createOpenAiProvider({
      baseUrl: fake.url,
      apiKey,
      models: allModels,
      timeoutMs: 2_000,
      maxRetries: 2,
      fallbackEmbeddings: fallbackEmbeddings(),
      onUsage: (ctx, model, used) => usage.push({ ctx, model, usage: used }),
      logger: {
        warn: (fields: object, message: string) =>
          logLines.push(JSON.stringify({ ...fields, message })),
      } as unknown as Logger,
      ...overrides,
    });

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    usage = [];
    logLines = [];
  });

  describe('chat', () => {
    it('streams the answer as it comes, then the usage, and reports the usage once', async () => {
      fake.reply(() => ({ text: 'Hello brave world', chunks: ['Hel', 'lo brave', ' world'] }));
      const tokensBefore = (await aiTokens.get()).values.find(
        (v) => v.labels.model === 'gpt-chat' && v.labels.kind === 'completion',
      )?.value;

      const chunks = await collect(
        provider().chat(
          [
            { role: 'system', content: 'You write notes' },
            { role: 'user', content: 'Say hello' },
          ],
          {},
          ctx,
        ),
      );

      expect(chunks).toEqual([
        { type: 'text', text: 'Hel' },
        { type: 'text', text: 'lo brave' },
        { type: 'text', text: ' world' },
        { type: 'usage', usage: { promptTokens: 5, completionTokens: 3 } },
      ]);
      expect(usage).toEqual([
        { ctx, model: 'gpt-chat', usage: { promptTokens: 5, completionTokens: 3 } },
      ]);
      const tokensAfter = (await aiTokens.get()).values.find(
        (v) =>
          v.labels.model === 'gpt-chat' &&
          v.labels.kind === 'completion' &&
          v.labels.purpose === 'writer',
      )?.value;
      expect(tokensAfter).toBe((tokensBefore ?? 0) + 3);

      const [request] = fake.requests;
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
      expect(request?.body).toMatchObject({
        model: 'gpt-chat',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: 'You write notes' },
          { role: 'user', content: 'Say hello' },
        ],
      });
      expect(request?.body).not.toHaveProperty('response_format');
    });

    it('asks for a JSON object and passes length and temperature when told to', async () => {
      fake.reply(() => '{"title":"Groceries"}');
      const answer = await chatText(
        provider().chat(
          [{ role: 'user', content: 'Title?' }],
          { json: true, maxTokens: 50, temperature: 0.2 },
          ctx,
        ),
      );

      expect(JSON.parse(answer.text)).toEqual({ title: 'Groceries' });
      expect(fake.requests[0]?.body).toMatchObject({
        response_format: { type: 'json_object' },
        max_tokens: 50,
        temperature: 0.2,
      });
    });

    it('sends images as content parts to the vision model', async () => {
      const image = 'data:image/png;base64,iVBORw0KGgo=';
      await chatText(
        provider().chat(
          [{ role: 'user', content: { text: 'What is on this page?', imageUrls: [image] } }],
          {},
          { ...ctx, purpose: 'vision' },
        ),
      );

      expect(fake.requests[0]?.body).toMatchObject({
        model: 'gpt-vision',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is on this page?' },
              { type: 'image_url', image_url: { url: image } },
            ],
          },
        ],
      });
      expect(usage[0]?.model).toBe('gpt-vision');
    });

    it('refuses images without a vision model, naming the variable, and sends nothing', async () => {
      const chat = provider({ models: { chat: 'gpt-chat' } }).chat(
        [
          {
            role: 'user',
            content: { text: 'Describe', imageUrls: ['data:image/png;base64,AA=='] },
          },
        ],
        {},
        ctx,
      );

      await expect(chatText(chat)).rejects.toMatchObject({
        code: 'AI_MODEL_REQUIRED',
        message: expect.stringContaining('OPENAI_VISION_MODEL'),
      });
      expect(fake.requests).toHaveLength(0);
    });

    it('refuses without a chat model, naming the variable, and sends nothing', async () => {
      const openai = provider({ models: {} });

      expect(openai.models.chat).toBeNull();
      await expect(
        chatText(openai.chat([{ role: 'user', content: 'Hi' }], {}, ctx)),
      ).rejects.toMatchObject({
        code: 'AI_MODEL_REQUIRED',
        status: 501,
        message: expect.stringContaining('OPENAI_CHAT_MODEL'),
      });
      expect(fake.requests).toHaveLength(0);
    });

    it('cuts a stream that stops sending mid-answer with TIMEOUT, and the request upstream', async () => {
      fake.reply(() => ({
        text: 'one two three',
        chunks: ['one ', 'two ', 'three'],
        delayMsPerChunk: 400,
      }));
      const received: string[] = [];
      const stalled = provider({ timeoutMs: 150, maxRetries: 0 });
      const error = await (async () => {
        for await (const chunk of stalled.chat([{ role: 'user', content: 'Hi' }], {}, ctx)) {
          if (chunk.type === 'text') received.push(chunk.text);
        }
      })().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'TIMEOUT' });
      await vi.waitFor(() => expect(fake.requests[0]?.cancelled).toBe(true));
    });

    it('cancels the upstream request when the caller aborts mid-stream', async () => {
      const words = Array.from({ length: 50 }, (_, i) => `word${i} `);
      fake.reply(() => ({ text: words.join(''), chunks: words, delayMsPerChunk: 20 }));
      const controller = new AbortController();
      const received: string[] = [];
      const cancelledBefore = (await aiProviderRequests.get()).values.find(
        (v) => v.labels.operation === 'chat' && v.labels.outcome === 'cancelled',
      )?.value;

      const iterate = async () => {
        for await (const chunk of provider().chat(
          [{ role: 'user', content: 'Write a long text' }],
          {},
          { ...ctx, signal: controller.signal },
        )) {
          if (chunk.type === 'text') received.push(chunk.text);
          if (received.length === 2) controller.abort();
        }
      };

      const error = await iterate().catch((e: unknown) => e);

      expect(error).toBe(controller.signal.reason);
      expect(error).toMatchObject({ name: 'AbortError' });
      await vi.waitFor(() => expect(fake.requests[0]?.cancelled).toBe(true));
      expect(fake.cancelled).toBe(1);
      expect(fake.requests[0]?.chunksSent).toBeLessThan(words.length);
      // What was generated before the stop is charged, estimated (no usage chunk came).
      expect(usage).toHaveLength(1);
      expect(usage[0]?.usage.completionTokens).toBe(Math.ceil(received.join('').length / 4));
      const cancelledAfter = (await aiProviderRequests.get()).values.find(
        (v) => v.labels.operation === 'chat' && v.labels.outcome === 'cancelled',
      )?.value;
      expect(cancelledAfter).toBe((cancelledBefore ?? 0) + 1);
    });
  });

  describe('embeddings', () => {
    it('embeds 600 texts in three requests of at most 256, in order, as unit vectors', async () => {
      const texts = Array.from({ length: 600 }, (_, i) => `note number ${i} about topic ${i % 7}`);

      const result = await provider().embed(texts, { ...ctx, purpose: 'index' });

      const sizes = fake.requests.map((r) => (r.body.input as string[]).length);
      expect(sizes).toEqual([256, 256, 88]);
      expect(fake.requests.every((r) => r.body.model === 'text-embed')).toBe(true);
      expect(result.model).toBe('text-embed');
      expect(result.vectors).toHaveLength(600);
      for (const [i, vector] of result.vectors.entries()) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(norm(vector)).toBeCloseTo(1, 5);
        expect(distance(vector, fakeEmbedding(texts[i]!, 64))).toBeLessThan(1e-5);
      }
      const words = texts.reduce((sum, text) => sum + text.split(' ').length, 0);
      expect(result.usage).toEqual({ promptTokens: words, completionTokens: 0 });
      expect(usage).toEqual([
        { ctx: { ...ctx, purpose: 'index' }, model: 'text-embed', usage: result.usage },
      ]);
    });

    it('re-normalises vectors a provider returns at other lengths', async () => {
      const server = await startFakeOpenAi({ embeddingScale: 3 });
      try {
        const openai = createOpenAiProvider({
          baseUrl: server.url,
          models: allModels,
          fallbackEmbeddings: fallbackEmbeddings(),
        });

        const { vectors } = await openai.embed(['alpha beta'], ctx);

        expect(norm(vectors[0]!)).toBeCloseTo(1, 5);
        expect(distance(vectors[0]!, fakeEmbedding('alpha beta', 64))).toBeLessThan(1e-5);
      } finally {
        await server.close();
      }
    });

    it('uses the fallback embeddings without an embedding model and sends nothing', async () => {
      const fallback = fallbackEmbeddings();
      const openai = provider({ models: { chat: 'gpt-chat' }, fallbackEmbeddings: fallback });

      const result = await openai.embed(['one', 'two'], ctx);

      expect(openai.models.embeddings).toBe('local-hashed');
      expect(result.model).toBe('local-hashed');
      expect(fallback.embedded).toEqual([['one', 'two']]);
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('transcription', () => {
    it('uploads the audio as a file with the transcription model', async () => {
      fake.transcribe((file) => `heard ${file.data.length} bytes of ${file.type}`);

      const result = await provider().transcribe(
        { data: new Uint8Array([1, 2, 3, 4]), fileName: 'memo.webm', mimeType: 'audio/webm' },
        ctx,
      );

      expect(result).toEqual({ text: 'heard 4 bytes of audio/webm', model: 'whisper-test' });
      expect(fake.requests[0]?.path).toBe('/v1/audio/transcriptions');
      expect(fake.requests[0]?.body).toMatchObject({
        model: 'whisper-test',
        file: { fileName: 'memo.webm', type: 'audio/webm', size: 4 },
      });
    });

    it('refuses without a transcription model and sends nothing', async () => {
      await expect(
        provider({ models: { chat: 'gpt-chat' } }).transcribe(
          { data: new Uint8Array([1]), fileName: 'a.wav', mimeType: 'audio/wav' },
          ctx,
        ),
      ).rejects.toMatchObject({
        code: 'AI_MODEL_REQUIRED',
        message: expect.stringContaining('OPENAI_TRANSCRIPTION_MODEL'),
      });
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('failures', () => {
    const ask = (openai: AiProvider, text = 'my private note text') =>
      chatText(openai.chat([{ role: 'user', content: text }], {}, ctx));

    it('retries a rate limit and succeeds', async () => {
      fake.failNext(2, 429);

      const answer = await ask(provider());

      expect(answer.text).toBe('Answer to: my private note text');
      expect(fake.requests.map((r) => r.status)).toEqual([429, 429, 200]);
    });

    it('answers RATE_LIMITED when the rate limit outlasts the retries', async () => {
      fake.failNext(3, 429, { retryAfterSeconds: 0 });

      await expect(ask(provider())).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      expect(fake.requests).toHaveLength(3);
    });

    it('answers AI_PROVIDER_FAILED with the status after server errors beyond the retries, leaking nothing', async () => {
      fake.failNext(5, 500);

      const error = await ask(provider({ maxRetries: 1 })).catch((e: unknown) => e);

      expect(error).toMatchObject({
        code: 'AI_PROVIDER_FAILED',
        status: 502,
        details: { status: 500 },
      });
      expect(fake.requests).toHaveLength(2);
      const said = JSON.stringify([String(error), (error as Error).message, logLines]);
      expect(logLines.length).toBeGreaterThan(0);
      expect(said).not.toContain(apiKey);
      expect(said).not.toContain('my private note text');
    });

    it('answers AI_PROVIDER_FAILED naming the key variable when the key is refused', async () => {
      const error = await ask(provider({ apiKey: 'sk-wrong-key' })).catch((e: unknown) => e);

      expect(error).toMatchObject({ code: 'AI_PROVIDER_FAILED', details: { status: 401 } });
      expect((error as Error).message).toContain('OPENAI_API_KEY');
      expect(JSON.stringify([(error as Error).message, logLines])).not.toContain('sk-wrong-key');
    });

    it('answers TIMEOUT when the provider does not answer in time', async () => {
      fake.hang(2_000);

      await expect(ask(provider({ timeoutMs: 100, maxRetries: 0 }))).rejects.toMatchObject({
        code: 'TIMEOUT',
        status: 504,
      });
    });

    it('answers AI_PROVIDER_FAILED naming the host when nothing listens there', async () => {
      const gone = await startFakeOpenAi();
      await gone.close();
      const host = new URL(gone.url).host;

      await expect(ask(provider({ baseUrl: gone.url, maxRetries: 0 }))).rejects.toMatchObject({
        code: 'AI_PROVIDER_FAILED',
        message: `The AI provider at ${host} could not be reached`,
      });
    });
  });

  it('closes', async () => {
    await expect(provider().close()).resolves.toBeUndefined();
  });
});
