import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOpenAiProvider, type OpenAiProviderOptions } from './openai.js';
import { chatText, type AiProvider, type CallContext } from './port.js';

const ctx: CallContext = { userId: 'user-1', purpose: 'writer' };

const notUsed = (): never => {
  throw new Error('not used');
};

const noFallback: AiProvider = {
  name: 'local',
  models: {
    chat: null,
    embeddings: 'local-hashed',
    retrieval: null,
    transcription: null,
    vision: null,
  },
  chat: notUsed,
  embed: notUsed,
  embedForRetrieval: notUsed,
  transcribe: notUsed,
  close: async () => {},
};

const chunk = (text: string) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-chat',
    choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
  })}\n\n`;

type Answer = (res: ServerResponse) => void;

/** Headers at once, then the body a byte a second: five minutes of padding before it. */
const trickle =
  (contentType: string, body: string): Answer =>
  (res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
    const bytes = Buffer.from(body);
    let sent = 0;
    const timer = setInterval(() => {
      res.write(bytes.subarray(sent, sent + 1));
      if (++sent === bytes.length) {
        clearInterval(timer);
        res.end();
      }
    }, 1_000);
    res.on('close', () => clearInterval(timer));
  };

/** An answer that never ends: a word every 100 ms, for as long as the client listens. */
const endless: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const timer = setInterval(() => res.write(chunk('word ')), 100);
  res.on('close', () => clearInterval(timer));
};

/** An OpenAI-compatible server that answers every request as the test sets. */
const startSlowProvider = async () => {
  const state = { answer: ((res) => res.end()) as Answer, requests: [] as string[], closed: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      state.requests.push(new URL(req.url ?? '/', 'http://localhost').pathname);
      res.on('close', () => {
        if (!res.writableFinished) state.closed += 1;
      });
      state.answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    state,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

describe('OpenAI provider deadlines', () => {
  let slow: Awaited<ReturnType<typeof startSlowProvider>>;
  const padding = ' '.repeat(300);

  const provider = (overrides: Partial<OpenAiProviderOptions> = {}) =>
    createOpenAiProvider({
      baseUrl: slow.url,
      models: {
        chat: 'gpt-chat',
        embeddings: 'text-embed',
        transcription: 'whisper',
        vision: 'gpt-vision',
      },
      timeoutMs: 1_000,
      maxRetries: 3,
      fallbackEmbeddings: noFallback,
      ...overrides,
    });

  beforeAll(async () => {
    slow = await startSlowProvider();
  });
  beforeEach(() => {
    slow.state.requests.length = 0;
    slow.state.closed = 0;
  });
  afterAll(() => slow.close());

  it('cuts embeddings whose answer trickles a byte a second with TIMEOUT, and the connection', async () => {
    const body = JSON.stringify({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [1, 0] }],
      model: 'text-embed',
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
    slow.state.answer = trickle('application/json', padding + body);

    await expect(provider().embed(['a note'], ctx)).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: { operation: 'embed' },
    });
    await vi.waitFor(() => expect(slow.state.closed).toBe(1));
    expect(slow.state.requests).toEqual(['/v1/embeddings']);
  });

  it('cuts a transcription whose answer trickles with TIMEOUT, and the connection', async () => {
    slow.state.answer = trickle('application/json', padding + JSON.stringify({ text: 'heard' }));

    const audio = {
      data: new Uint8Array([1, 2, 3]),
      fileName: 'memo.webm',
      mimeType: 'audio/webm',
    };
    await expect(provider().transcribe(audio, ctx)).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: { operation: 'transcribe' },
    });
    await vi.waitFor(() => expect(slow.state.closed).toBe(1));
  });

  it('ends a streamed vision answer that trickles at the stream deadline, whatever the idle bound', async () => {
    slow.state.answer = trickle('text/event-stream', chunk('word '.repeat(100)));
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const chat = provider({ timeoutMs: 120_000, streamTimeoutMs: 1_000 }).chat(
      [{ role: 'user', content: { text: 'What is on this page?', imageUrls: [image] } }],
      {},
      { ...ctx, purpose: 'vision' },
    );

    await expect(chatText(chat)).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: { operation: 'chat' },
    });
    await vi.waitFor(() => expect(slow.state.closed).toBe(1));
  });

  it('ends an answer that never stops at the stream deadline, though words keep coming', async () => {
    slow.state.answer = endless;
    const received: string[] = [];
    const chat = provider({ timeoutMs: 120_000, streamTimeoutMs: 1_000 }).chat(
      [{ role: 'user', content: 'Write forever' }],
      {},
      ctx,
    );

    const error = await (async () => {
      for await (const part of chat) if (part.type === 'text') received.push(part.text);
    })().catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'TIMEOUT', details: { operation: 'chat' } });
    expect(received.length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(slow.state.closed).toBe(1));
  });

  it('does not sleep out a Retry-After past the deadline', async () => {
    slow.state.answer = (res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '600' });
      res.end(JSON.stringify({ error: { message: 'Slow down', type: 'requests', code: null } }));
    };

    await expect(provider().embed(['a note'], ctx)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(slow.state.requests).toEqual(['/v1/embeddings']);
  });

  it('gives all attempts one deadline: a provider that never answers is not tried again', async () => {
    slow.state.answer = () => undefined;

    await expect(provider().embed(['a note'], ctx)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await vi.waitFor(() => expect(slow.state.closed).toBe(1));
    expect(slow.state.requests).toEqual(['/v1/embeddings']);
  });
});
