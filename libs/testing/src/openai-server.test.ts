import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbedding, startFakeOpenAi, type FakeOpenAi } from './openai-server.js';

const apiKey = 'sk-fake';
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

const post = (fake: FakeOpenAi, path: string, body: unknown) =>
  fetch(`${fake.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

interface StreamChunk {
  choices: { delta: { content?: string } }[];
  usage?: unknown;
}

const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('fake OpenAI server', () => {
  let fake: FakeOpenAi;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it('answers a chat completion with the echo and word-count usage', async () => {
    const response = await post(fake, '/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'plan my week' }],
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Answer to: plan my week' } }],
      usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
    });
  });

  it('streams server-sent chunks, the usage when asked, then [DONE]', async () => {
    fake.reply(() => 'one two three');
    const response = await post(fake, '/chat/completions', {
      model: 'm',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
      stream_options: { include_usage: true },
    });

    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.replace(/^data: /, '')) as StreamChunk);
    const deltas = chunks.flatMap((chunk) =>
      chunk.choices.map((choice) => choice.delta.content ?? ''),
    );
    expect(deltas.filter(Boolean)).toEqual(['one ', 'two ', 'three']);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 1, completion_tokens: 3 },
    });
    expect(fake.requests[0]).toMatchObject({ chunksSent: 3, cancelled: false, status: 200 });
  });

  it('stops streaming and records the cancel when the client goes away', async () => {
    const chunks = Array.from({ length: 100 }, (_, i) => `w${i} `);
    fake.reply(() => ({ text: chunks.join(''), chunks, delayMsPerChunk: 10 }));
    const controller = new AbortController();
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'm', messages: [], stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();

    await expect.poll(() => fake.cancelled).toBe(1);
    const sent = fake.requests[0]!.chunksSent;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.requests[0]!.chunksSent).toBe(sent);
    expect(sent).toBeLessThan(chunks.length);
  });

  it('embeds deterministically: equal texts equal, shared words closer, base64 when asked', async () => {
    const response = await post(fake, '/embeddings', {
      model: 'e',
      input: ['garden tomato harvest', 'garden tomato harvest', 'garden tomato soup', 'tax return'],
      dimensions: 32,
    });
    const body = (await response.json()) as {
      data: { index: number; embedding: number[] }[];
      usage: { prompt_tokens: number };
    };
    const [a, same, near, far] = body.data.map((item) => item.embedding) as number[][];

    expect(a).toHaveLength(32);
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
    expect(same).toEqual(a);
    expect(dot(a!, near!)).toBeGreaterThan(dot(a!, far!));
    expect(body.usage.prompt_tokens).toBe(11);

    const encoded = (await (
      await post(fake, '/embeddings', {
        model: 'e',
        input: 'tax return',
        encoding_format: 'base64',
      })
    ).json()) as { data: { embedding: string }[] };
    const bytes = Buffer.from(encoded.data[0]!.embedding, 'base64');
    const decoded = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    expect(Array.from(decoded)).toEqual(
      Array.from(new Float32Array(fakeEmbedding('tax return', 64))),
    );
  });

  it('transcribes multipart uploads and records the form fields', async () => {
    const form = new FormData();
    form.set('model', 'whisper');
    form.set('file', new File([new Uint8Array([1, 2])], 'voice.ogg', { type: 'audio/ogg' }));

    const response = await fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
      body: form,
    });

    expect(await response.json()).toEqual({ text: 'transcribed voice.ogg' });
    expect(fake.requests[0]?.body).toEqual({
      model: 'whisper',
      file: { fileName: 'voice.ogg', type: 'audio/ogg', size: 2 },
    });
  });

  it('lists models', async () => {
    const response = await fetch(`${fake.url}/models`, { headers });

    expect(await response.json()).toMatchObject({
      object: 'list',
      data: expect.arrayContaining([expect.objectContaining({ id: 'fake-chat', object: 'model' })]),
    });
  });

  it('refuses a missing or wrong key with OpenAI’s error shape', async () => {
    const response = await fetch(`${fake.url}/models`, {
      headers: { authorization: 'Bearer sk-other' },
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        message: expect.any(String),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  });

  it('fails the next requests as told, with a retry hint, then answers again', async () => {
    fake.failNext(1, 429);
    fake.failNext(1, 503, { retryAfterSeconds: 2 });

    const limited = await fetch(`${fake.url}/models`, { headers });
    const unavailable = await fetch(`${fake.url}/models`, { headers });
    const ok = await fetch(`${fake.url}/models`, { headers });

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('1');
    expect(await limited.json()).toMatchObject({
      error: { type: 'requests', code: 'rate_limit_exceeded' },
    });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('2');
    expect(ok.status).toBe(200);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 503, 200]);
  });

  it('holds answers while hanging, so a client deadline passes first', async () => {
    fake.hang(5_000);

    await expect(
      fetch(`${fake.url}/models`, { headers, signal: AbortSignal.timeout(50) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect.poll(() => fake.requests[0]?.cancelled).toBe(true);
    fake.hang(0);
    expect((await fetch(`${fake.url}/models`, { headers })).status).toBe(200);
  });
});
