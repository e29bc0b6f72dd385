import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client.js';
import { AppError } from './errors.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const errorBody = (code: string, message: string) => ({ error: { code, message } });

const setUp = (answers: (() => Response | Promise<Response>)[], refreshes: boolean[] = []) => {
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    return next();
  });
  let token = 'token-1';
  const refresh = vi.fn(async () => {
    const ok = refreshes.shift() ?? false;
    if (ok) token = 'token-2';
    return ok;
  });
  const onError = vi.fn();
  const api = createApiClient({
    baseUrl: 'http://gateway',
    getToken: async () => token,
    refresh,
    fetch: fetch as unknown as typeof globalThis.fetch,
    onError,
  });
  const authorization = (call: number) =>
    new Headers(fetch.mock.calls[call]?.[1]?.headers).get('authorization');
  return { api, fetch, refresh, onError, authorization };
};

describe('the API client', () => {
  it('refreshes the token once on a 401 and retries with the new one', async () => {
    const { api, fetch, refresh, authorization } = setUp(
      [() => json(401, errorBody('UNAUTHENTICATED', 'expired')), () => json(200, { items: [] })],
      [true],
    );
    await expect(api.notes.pinned()).resolves.toEqual({ items: [] });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(authorization(0)).toBe('Bearer token-1');
    expect(authorization(1)).toBe('Bearer token-2');
  });

  it('gives up after one refresh: a second 401 is thrown, not retried again', async () => {
    const { api, fetch, refresh, onError } = setUp(
      [
        () => json(401, errorBody('UNAUTHENTICATED', 'expired')),
        () => json(401, errorBody('UNAUTHENTICATED', 'still expired')),
      ],
      [true],
    );
    await expect(api.notes.pinned()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('does not retry when the refresh fails (the session is over)', async () => {
    const { api, fetch } = setUp(
      [() => json(401, errorBody('UNAUTHENTICATED', 'expired'))],
      [false],
    );
    await expect(api.notes.pinned()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('maps a 403 on note creation to NOTES_LEFT_NOT_ENOUGH', async () => {
    const { api, onError } = setUp([() => new Response('Forbidden', { status: 403 })]);
    const failure = api.notes.create({ title: 'A', note: 'b', tags: [] });
    await expect(failure).rejects.toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
      message: 'Notes left not enough this month',
      status: 403,
    });
    expect(onError).toHaveBeenCalledWith(expect.any(AppError), {
      method: 'POST',
      path: '/api/note/create/direct',
    });
  });

  it('passes any other 403 through unchanged, without a retry', async () => {
    const { api, fetch, refresh } = setUp([() => json(403, errorBody('FORBIDDEN', 'Not yours'))]);
    await expect(api.notes.pin('n1')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Not yours',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('reports a failed fetch as UNAVAILABLE and re-throws it', async () => {
    const { api, onError } = setUp([
      () => {
        throw new TypeError('fetch failed');
      },
    ]);
    await expect(api.me()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'UNAVAILABLE' }), {
      method: 'GET',
      path: '/user',
    });
  });

  it('hands a cancellation back as it is, without reporting a failure', async () => {
    const controller = new AbortController();
    const reason = new Error('left the page');
    const { api, onError } = setUp([
      () => {
        controller.abort(reason);
        throw reason;
      },
    ]);
    await expect(api.notes.list({}, { signal: controller.signal })).rejects.toBe(reason);
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('uploads with progress', () => {
  /** An XMLHttpRequest that reports the upload in two steps, then answers 201. */
  class FakeXhr {
    static sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] =
      [];
    responseType = '';
    status = 0;
    response: unknown;
    upload = {
      onprogress: null as
        ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.request = { method, url, headers: {} };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    getAllResponseHeaders() {
      return 'content-type: application/json\r\n';
    }
    abort() {}
    send(body: unknown) {
      FakeXhr.sent.push({ ...this.request, body });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.status = 201;
      this.response = new Blob([JSON.stringify({ id: 'n1' })]);
      this.onload?.();
    }
  }

  it('sends a file through XMLHttpRequest when progress is asked for, with the token', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    try {
      const api = createApiClient({ baseUrl: 'http://gateway', getToken: async () => 'token-1' });
      const seen: number[] = [];
      const note = await api.capture.pdf(new Blob(['%PDF-1.4']), 'a.pdf', {
        onUploadProgress: (sent, total) => seen.push(sent / total),
      });
      expect(note).toEqual({ id: 'n1' });
      expect(seen).toEqual([0.5, 1]);
      expect(FakeXhr.sent[0]).toMatchObject({
        method: 'POST',
        url: 'http://gateway/api/note/create/bypdf',
        headers: { authorization: 'Bearer token-1' },
      });
      expect(FakeXhr.sent[0]?.body).toBeInstanceOf(FormData);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  /** An XMLHttpRequest whose answer the test sends piece by piece, as a server streams it. */
  class StreamingXhr {
    static last: StreamingXhr | undefined;
    responseType = '';
    readyState = 0;
    status = 0;
    response: unknown;
    responseText = '';
    upload = {
      onprogress: null as
        ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    onreadystatechange: (() => void) | null = null;
    onprogress: (() => void) | null = null;
    url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    getAllResponseHeaders() {
      return 'content-type: text/event-stream\r\n';
    }
    abort() {
      this.onabort?.();
    }
    send() {
      StreamingXhr.last = this;
    }
    uploaded(loaded: number, total: number) {
      this.upload.onprogress?.({ lengthComputable: true, loaded, total });
    }
    headers(status: number) {
      this.status = status;
      this.readyState = 2;
      this.onreadystatechange?.();
    }
    text(more: string) {
      this.responseText += more;
      this.readyState = 3;
      this.onprogress?.();
    }
    end() {
      this.readyState = 4;
      this.onload?.();
    }
  }

  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('follows an import’s upload, then its events as they come, through XMLHttpRequest', async () => {
    vi.stubGlobal('XMLHttpRequest', StreamingXhr);
    try {
      const api = createApiClient({ baseUrl: 'http://gateway', getToken: async () => 'token-1' });
      const sent: number[] = [];
      const progress: unknown[] = [];
      const imported = api.imports.file(new Blob(['# A']), {
        fileName: 'a.md',
        onUploadProgress: (loaded, total) => sent.push(loaded / total),
        onProgress: (event) => progress.push(event),
      });
      await tick();
      const xhr = StreamingXhr.last as StreamingXhr;
      expect(xhr.url).toBe('http://gateway/export/import');
      expect(xhr.responseType).toBe('text');
      xhr.uploaded(5, 10);
      xhr.uploaded(10, 10);
      xhr.headers(200);
      const step = { done: 1, total: 2, created: 1, updated: 0, failed: 0 };
      xhr.text(`data: ${JSON.stringify({ type: 'progress', ...step })}\n\n`);
      await tick();
      // Heard before the answer has ended.
      expect(progress).toEqual([step]);
      const result = {
        source: 'markdown',
        created: 2,
        updated: 0,
        imagesUploaded: 0,
        failed: [],
        skipped: [],
        skippedTotal: 0,
        cancelled: false,
      };
      xhr.text(`data: ${JSON.stringify({ type: 'done', ...result })}\n\n`);
      xhr.end();
      await expect(imported).resolves.toEqual(result);
      expect(sent).toEqual([0.5, 1]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('uses fetch when no progress is asked for, or when a fetch of its own is given', async () => {
    const { api, fetch } = setUp([() => json(201, { id: 'n2' }), () => json(201, { id: 'n3' })]);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    try {
      await expect(api.capture.image(new Blob(['x']), 'x.png')).resolves.toEqual({ id: 'n2' });
      const progress = { onUploadProgress: () => {} };
      await expect(api.capture.pdf(new Blob(['x']), 'x.pdf', progress)).resolves.toEqual({
        id: 'n3',
      });
      expect(fetch).toHaveBeenCalledTimes(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  const target = (url: string) => ({
    uploadId: '6f1d3c9e-8d2a-4c1b-9e1f-0a2b3c4d5e6f',
    url,
    fields: { key: 'u1/uploads/6f1d', policy: 'p', 'x-amz-signature': 's' },
    maxBytes: 100,
    expiresAt: '2026-11-25T12:00:00.000Z',
  });

  it('sends a large file straight to the store, without the token, then makes the note', async () => {
    const { api, fetch, authorization } = setUp([
      () => json(201, target('http://media.local/noted')),
      () => new Response(null, { status: 204 }),
      () => json(201, { id: 'n4' }),
    ]);
    const note = await api.capture.upload('pdf', new Blob(['%PDF-1.4']), 'talk.pdf');
    expect(note).toEqual({ id: 'n4' });
    const urls = fetch.mock.calls.map(([url]) => String(url));
    expect(urls).toEqual([
      'http://gateway/api/config/s3credentials',
      'http://media.local/noted',
      'http://gateway/api/note/create/byupload',
    ]);
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({
      kind: 'pdf',
      name: 'talk.pdf',
      bytes: 8,
    });
    expect(authorization(1)).toBeNull();
    const form = fetch.mock.calls[1]?.[1]?.body as FormData;
    // The signed fields first, as given; the file last.
    expect([...form.keys()]).toEqual(['key', 'policy', 'x-amz-signature', 'file']);
    expect(JSON.parse(String(fetch.mock.calls[2]?.[1]?.body))).toEqual({
      uploadId: target('').uploadId,
    });
  });

  it('says plainly when the store refuses a file as too large, and makes no note', async () => {
    const tooLarge =
      '<?xml version="1.0"?><Error><Code>EntityTooLarge</Code><Message>big</Message></Error>';
    const { api, fetch } = setUp([
      () => json(201, target('http://media.local/noted')),
      () => new Response(tooLarge, { status: 400, headers: { 'content-type': 'application/xml' } }),
    ]);
    await expect(api.capture.upload('audio', new Blob(['x']), 'a.mp3')).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("sends to the server's own upload address when the store is not reached directly", async () => {
    const { api, fetch } = setUp([
      () => json(201, { ...target('/api/uploads/abc'), fields: {} }),
      () => json(404, errorBody('NOT_FOUND', 'There is no such upload, or it has expired')),
    ]);
    await expect(api.capture.upload('audio', new Blob(['x']), 'a.mp3')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(String(fetch.mock.calls[1]?.[0])).toBe('http://gateway/api/uploads/abc');
  });
});
