import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server speaking the OpenAI REST wire format under `/v1`, for tests of code that
 * talks to an OpenAI-compatible API through the real SDK: chat completions (plain and SSE
 * streaming), embeddings, audio transcriptions and the model list, with failure injection.
 */

export type FakeChatContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface FakeChatMessage {
  role: string;
  content: string | FakeChatContentPart[] | null;
}

/** A chat completion request as the reply handler sees it. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream: boolean;
  /** The whole JSON body, for anything else a handler wants to look at. */
  body: Record<string, unknown>;
}

export type FakeChatReply =
  | string
  | {
      text: string;
      /** How the text is streamed; defaults to one chunk per word. */
      chunks?: string[];
      delayMsPerChunk?: number;
    };

export interface FakeAudioFile {
  fileName: string;
  type: string;
  data: Uint8Array;
}

export interface FakeOpenAiRequest {
  method: string;
  /** The path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the form fields of a multipart body (files as name, type, size). */
  body: Record<string, unknown>;
  /** The status answered, set when the answer ends (or the client leaves after its head). */
  status?: number;
  /** Streamed answers: the chunks written before the end or the client leaving. */
  chunksSent: number;
  /** The client went away before the answer ended. */
  cancelled: boolean;
}

export interface FakeOpenAiOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (401 otherwise). */
  apiKey?: string;
  /** Listed by `GET /v1/models`. */
  models?: string[];
  /** Embedding dimensions when a request does not ask for any. */
  dimensions?: number;
  /** Multiplies every embedding, like providers whose vectors are not unit length (default 1). */
  embeddingScale?: number;
}

export interface FailOptions {
  /** Sent as `Retry-After`; without it the fake sends `retry-after-ms: 1` so SDK retries are quick. */
  retryAfterSeconds?: number;
  message?: string;
}

export interface FakeOpenAi {
  /** The API base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly requests: FakeOpenAiRequest[];
  /** How many answers the client left before their end. */
  readonly cancelled: number;
  /** Decides chat replies; the default echoes `Answer to: <last user message>`. */
  reply(handler: (request: FakeChatRequest) => FakeChatReply | Promise<FakeChatReply>): void;
  /** Decides transcriptions; the default answers `transcribed <file name>`. */
  transcribe(
    handler: (file: FakeAudioFile, fields: Record<string, unknown>) => string | Promise<string>,
  ): void;
  /** The next `count` requests answer `status` with OpenAI's error body. */
  failNext(count: number, status: number, options?: FailOptions): void;
  /** Delays every answer by `ms` until called again with 0. */
  hang(ms: number): void;
  /** Forgets requests, handlers, failures and delays. */
  reset(): void;
  close(): Promise<void>;
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

const messageText = (message: FakeChatMessage): string => {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join(' ');
};

const defaultReply = (request: FakeChatRequest): string => {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  return `Answer to: ${lastUser ? messageText(lastUser) : ''}`;
};

/** Splits after whitespace, so the chunks join back to exactly the text. */
const wordChunks = (text: string): string[] => (text ? text.split(/(?<=\s)(?=\S)/) : []);

const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** mulberry32: a small seeded generator, so a word always adds the same direction. */
const seeded = (seed: number) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** The sum of one pseudo-random direction per word, normalised: shared words, similar vectors. */
export const fakeEmbedding = (text: string, dimensions: number): number[] => {
  const vector = new Array<number>(dimensions).fill(0);
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [''];
  for (const token of tokens) {
    const next = seeded(fnv1a(token));
    for (let i = 0; i < dimensions; i++) vector[i]! += next() * 2 - 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
};

const errorType = (status: number): string =>
  status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';

const errorCode = (status: number): string | null =>
  status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : null;

const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
};

const sendError = (
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) =>
  sendJson(
    res,
    status,
    { error: { message, type: errorType(status), param: null, code: errorCode(status) } },
    headers,
  );

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

const sleep = (ms: number, until: Promise<void>) =>
  Promise.race([new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), until]);

export const startFakeOpenAi = async (options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> => {
  const requests: FakeOpenAiRequest[] = [];
  let replyHandler: (request: FakeChatRequest) => FakeChatReply | Promise<FakeChatReply> =
    defaultReply;
  let transcribeHandler: (
    file: FakeAudioFile,
    fields: Record<string, unknown>,
  ) => string | Promise<string> = (file) => `transcribed ${file.fileName}`;
  const failures: { status: number; options: FailOptions }[] = [];
  let hangMs = 0;
  let counter = 0;
  const modelList = options.models ?? [
    'fake-chat',
    'fake-embedding',
    'fake-transcription',
    'fake-vision',
  ];

  const chatCompletion = async (
    record: FakeOpenAiRequest,
    body: Record<string, unknown>,
    res: ServerResponse,
    gone: Promise<void>,
  ) => {
    const request: FakeChatRequest = {
      model: String(body.model ?? ''),
      messages: Array.isArray(body.messages) ? (body.messages as FakeChatMessage[]) : [],
      stream: body.stream === true,
      body,
    };
    const reply = await replyHandler(request);
    const text = typeof reply === 'string' ? reply : reply.text;
    const usage = {
      prompt_tokens: request.messages.reduce((sum, m) => sum + words(messageText(m)).length, 0),
      completion_tokens: words(text).length,
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = `chatcmpl-fake-${++counter}`;
    const created = Math.floor(Date.now() / 1000);

    if (!request.stream) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage,
      });
      return;
    }

    const chunks = (typeof reply === 'string' ? undefined : reply.chunks) ?? wordChunks(text);
    const delayMs = typeof reply === 'string' ? 0 : (reply.delayMsPerChunk ?? 0);
    const includeUsage =
      (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices, ...extra })}\n\n`;
    const delta = (content: Record<string, unknown>, finish: string | null = null) =>
      chunk([{ index: 0, delta: content, logprobs: null, finish_reason: finish }]);

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(delta({ role: 'assistant', content: '' }));
    for (const content of chunks) {
      if (delayMs > 0) await sleep(delayMs, gone);
      if (record.cancelled || res.destroyed) return;
      res.write(delta({ content }));
      record.chunksSent++;
    }
    res.write(delta({}, 'stop'));
    if (includeUsage) res.write(chunk([], { usage }));
    res.end('data: [DONE]\n\n');
  };

  const embeddings = (body: Record<string, unknown>, res: ServerResponse) => {
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.some((input) => typeof input !== 'string')) {
      sendError(res, 400, "'input' must be a string or an array of strings");
      return;
    }
    const dimensions =
      typeof body.dimensions === 'number' ? body.dimensions : (options.dimensions ?? 64);
    const base64 = body.encoding_format === 'base64';
    const promptTokens = inputs.reduce(
      (sum: number, input: string) => sum + words(input).length,
      0,
    );
    sendJson(res, 200, {
      object: 'list',
      model: String(body.model ?? ''),
      data: inputs.map((input: string, index) => {
        const vector = fakeEmbedding(input, dimensions).map(
          (value) => value * (options.embeddingScale ?? 1),
        );
        return {
          object: 'embedding',
          index,
          embedding: base64
            ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
            : vector,
        };
      }),
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    });
  };

  const transcription = async (
    fields: Record<string, unknown>,
    form: FormData,
    res: ServerResponse,
  ) => {
    const file = form.get('file');
    if (!(file instanceof Blob)) {
      sendError(res, 400, "'file' is required");
      return;
    }
    const audio: FakeAudioFile = {
      fileName: file instanceof File ? file.name : 'audio',
      type: file.type,
      data: new Uint8Array(await file.arrayBuffer()),
    };
    sendJson(res, 200, { text: await transcribeHandler(audio, fields) });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const record: FakeOpenAiRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body: {},
      chunksSent: 0,
      cancelled: false,
    };
    requests.push(record);
    const gone = new Promise<void>((resolve) =>
      res.on('close', () => {
        if (res.headersSent) record.status = res.statusCode;
        if (!res.writableFinished) record.cancelled = true;
        resolve();
      }),
    );

    const raw = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    let form: FormData | undefined;
    if (contentType.startsWith('multipart/form-data')) {
      form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': contentType },
      }).formData();
      form.forEach((value, name) => {
        record.body[name] =
          typeof value === 'string'
            ? value
            : { fileName: value.name, type: value.type, size: value.size };
      });
    } else if (raw.length > 0) {
      try {
        record.body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        sendError(res, 400, 'The body is not valid JSON');
        return;
      }
    }

    if (hangMs > 0) await sleep(hangMs, gone);
    if (record.cancelled || res.destroyed) return;

    const failure = failures.shift();
    if (failure) {
      const retryHeaders: Record<string, string> =
        failure.options.retryAfterSeconds === undefined
          ? { 'retry-after-ms': '1' }
          : { 'retry-after': String(failure.options.retryAfterSeconds) };
      sendError(
        res,
        failure.status,
        failure.options.message ?? `Injected failure (${failure.status})`,
        retryHeaders,
      );
      return;
    }

    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(res, 401, 'Incorrect API key provided.');
      return;
    }

    if (req.method === 'POST' && path === '/v1/chat/completions') {
      await chatCompletion(record, record.body, res, gone);
    } else if (req.method === 'POST' && path === '/v1/embeddings') {
      embeddings(record.body, res);
    } else if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
      if (!form) sendError(res, 400, 'Expected a multipart/form-data body');
      else await transcription(record.body, form, res);
    } else if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: modelList.map((id) => ({ id, object: 'model', created: 0, owned_by: 'noted-fake' })),
      });
    } else {
      sendError(res, 404, `Unknown route ${req.method} ${path}`);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendError(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get cancelled() {
      return requests.filter((request) => request.cancelled).length;
    },
    reply(handler) {
      replyHandler = handler;
    },
    transcribe(handler) {
      transcribeHandler = handler;
    },
    failNext(count, status, failOptions = {}) {
      for (let i = 0; i < count; i++) failures.push({ status, options: failOptions });
    },
    hang(ms) {
      hangMs = ms;
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
      hangMs = 0;
      replyHandler = defaultReply;
      transcribeHandler = (file) => `transcribed ${file.fileName}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
