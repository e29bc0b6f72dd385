import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '@noted/testing';
import { DEFAULT_USE_MODEL_DIR } from '../local/use/model-dir.js';
import { createLocalProvider } from './local.js';
import { createOpenAiProvider } from './openai.js';
import type { AiProvider, CallContext } from './port.js';

/** What every adapter promises the features, whichever provider is configured. */

const ctx: CallContext = { userId: 'user-1', purpose: 'contract' };

interface Adapter {
  name: string;
  start(): Promise<{ provider: AiProvider; stop(): Promise<void> }>;
}

const openAi =
  (models: Parameters<typeof createOpenAiProvider>[0]['models']) =>
  async (): Promise<{ provider: AiProvider; stop(): Promise<void> }> => {
    const fake: FakeOpenAi = await startFakeOpenAi({ apiKey: 'sk-contract' });
    const provider = createOpenAiProvider({
      baseUrl: fake.url,
      apiKey: 'sk-contract',
      models,
      timeoutMs: 2_000,
      maxRetries: 0,
      fallbackEmbeddings: createLocalProvider({ kind: 'hashed' }),
    });
    return { provider, stop: () => fake.close() };
  };

const adapters: Adapter[] = [
  {
    name: 'local',
    start: async () => ({
      provider: createLocalProvider({ kind: 'hashed' }),
      stop: async () => {},
    }),
  },
  {
    name: 'local with the sentence encoder',
    start: async () => {
      const provider = createLocalProvider({
        kind: 'use',
        modelDir: DEFAULT_USE_MODEL_DIR,
        threads: 1,
      });
      return { provider, stop: () => provider.close() };
    },
  },
  {
    name: 'openai with every model',
    start: openAi({
      chat: 'gpt-chat',
      embeddings: 'text-embed',
      transcription: 'whisper-test',
      vision: 'gpt-vision',
    }),
  },
  { name: 'openai with no model configured', start: openAi({}) },
];

const length = (vector: Float32Array) => Math.hypot(...vector);

describe.each(adapters)('AI provider contract: $name', (adapter) => {
  let provider: AiProvider;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ provider, stop } = await adapter.start());
  });
  afterAll(() => stop());

  it('embeds one unit vector per text, in order, with the model it names', async () => {
    const texts = ['budget meeting on monday', 'pasta recipe with basil', 'trip to the coast'];

    const result = await provider.embed(texts, ctx);
    const reversed = await provider.embed([...texts].reverse(), ctx);

    expect(result.model).toBe(provider.models.embeddings);
    expect(result.vectors).toHaveLength(texts.length);
    for (const vector of result.vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(length(vector)).toBeCloseTo(1, 5);
    }
    expect(reversed.vectors).toEqual([...result.vectors].reverse());
    expect(result.vectors[0]).not.toEqual(result.vectors[1]);
  });

  it('embeds the same text to the same vector', async () => {
    const first = await provider.embed(['weekly planning notes'], ctx);
    const second = await provider.embed(['weekly planning notes'], ctx);

    expect(second.vectors[0]).toEqual(first.vectors[0]);
  });

  it('embeds no texts to no vectors', async () => {
    const result = await provider.embed([], ctx);

    expect(result.vectors).toEqual([]);
    expect(result.model).toBe(provider.models.embeddings);
  });

  it('streams text then one usage with a chat model, or refuses with AI_MODEL_REQUIRED', async () => {
    // Wrapped so a provider that throws before its first chunk is held to the same promise.
    const chunks = async () => {
      const all = [];
      for await (const chunk of provider.chat(
        [{ role: 'user', content: 'Summarise my week' }],
        {},
        ctx,
      )) {
        all.push(chunk);
      }
      return all;
    };

    if (provider.models.chat === null) {
      await expect(chunks()).rejects.toMatchObject({ code: 'AI_MODEL_REQUIRED', status: 501 });
      return;
    }
    const all = await chunks();
    const text = all.slice(0, -1);
    expect(text.length).toBeGreaterThan(0);
    expect(text.every((chunk) => chunk.type === 'text')).toBe(true);
    expect(all.at(-1)).toMatchObject({
      type: 'usage',
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) },
    });
  });

  it('transcribes with a transcription model, or refuses with AI_MODEL_REQUIRED', async () => {
    const transcribe = async () =>
      provider.transcribe(
        { data: new Uint8Array([82, 73, 70, 70]), fileName: 'memo.wav', mimeType: 'audio/wav' },
        ctx,
      );

    if (provider.models.transcription === null) {
      await expect(transcribe()).rejects.toMatchObject({ code: 'AI_MODEL_REQUIRED', status: 501 });
      return;
    }
    const result = await transcribe();
    expect(result.model).toBe(provider.models.transcription);
    expect(result.text).not.toBe('');
  });

  it('closes', async () => {
    await expect(provider.close()).resolves.toBeUndefined();
  });
});
