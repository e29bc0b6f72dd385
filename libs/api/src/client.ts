import { createParser } from 'eventsource-parser';
import type {
  AiSearchQuery,
  AiSettingsUpdate,
  AiStreamEvent,
  ChatAnswerRequest,
  ChatListQuery,
  GenerateByContent,
  GenerateByTranscription,
  ImageAnalyze,
  KnowledgeGenerate,
  PeriodSummaryQuery,
  RelatedQuery,
  SummaryPeriodKind,
  WriterAskAi,
  WriterAssist,
} from './ai.js';
import { fillPath, type AnswerOf, type Contract } from './contract.js';
import { AppError, errorCodes, isErrorBody, type ErrorCode } from './errors.js';
import type { NoteCreate, NoteListQuery, NotePinnedQuery, NoteUpdate } from './notes.js';
import type { NoteGraphQuery } from './links.js';
import type { ReviewMark } from './review.js';
import type { CheckoutRequest, PlanChange } from './billing.js';
import type { UserCreate, UserDeleteRequest } from './users.js';
import type { UploadKind, UploadTarget } from './capture.js';
import type { MarkdownImages } from './export.js';
import type { FeedbackListQuery, FeedbackSend } from './feedback.js';
import type { ImportEvent, ImportProgress, ImportResult } from './imports.js';
import type { NotionConnect } from './notion.js';
import { routes } from './routes.js';
import type { TodoRecentQuery } from './todos.js';

export interface ApiClientOptions {
  /** Origin and path prefix of the gateway, '' for same origin. */
  baseUrl: string;
  /** Returns a fresh bearer token, or undefined when signed out. */
  getToken: () => Promise<string | undefined>;
  /** Called once on a 401 to refresh the session; true means retry the call. */
  refresh?: () => Promise<boolean>;
  /** Default 600000 ms (10 min): AI and uploads may take long. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests); then uploads report no progress (see UploadProgress). */
  fetch?: typeof fetch;
  /** Sees every failure just before it is thrown (to log it, or to react to its code). */
  onError?: (error: AppError, request: { method: string; path: string }) => void;
}

/** How far an upload has come: bytes sent of the whole body. */
export type UploadProgress = (sent: number, total: number) => void;

/** What this client uses of a browser's XMLHttpRequest (the library has no DOM types). */
interface Xhr {
  open(method: string, url: string): void;
  responseType: string;
  setRequestHeader(name: string, value: string): void;
  upload: {
    onprogress:
      ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  onreadystatechange: (() => void) | null;
  onprogress: (() => void) | null;
  readyState: number;
  status: number;
  response: unknown;
  responseText: string;
  getAllResponseHeaders(): string;
  abort(): void;
  send(body: unknown): void;
}
/** Looked up at each upload, so a page (or a test) that provides it later is seen. */
const xhrClass = () => (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

const headersOf = (xhr: Xhr) => {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
};

/** XMLHttpRequest's readyState once the status and headers are in. */
const HEADERS_RECEIVED = 2;

/**
 * `fetch` reports no upload progress; XMLHttpRequest does. The same request through XHR, its
 * answer as a Response, so everything after the transport is shared. With `streamed`, a text
 * answer (server-sent events) is handed over as soon as its headers arrive, its body growing as
 * the text does, so an upload's progress and then the answer's events can both be followed.
 */
const fetchWithUploadProgress =
  (XhrClass: new () => Xhr, onProgress: UploadProgress, streamed = false): typeof fetch =>
  (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XhrClass();
      xhr.open(init.method ?? 'GET', String(input));
      xhr.responseType = streamed ? 'text' : 'blob';
      for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) {
        xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
      const aborted = () => init.signal?.reason ?? new DOMException('Aborted', 'AbortError');
      const abort = () => xhr.abort();
      init.signal?.addEventListener('abort', abort, { once: true });
      if (streamed) {
        const encoder = new TextEncoder();
        let body: ReadableStreamDefaultController<Uint8Array> | undefined;
        let taken = 0;
        const take = () => {
          const text = xhr.responseText;
          if (text.length > taken) body?.enqueue(encoder.encode(text.slice(taken)));
          taken = text.length;
        };
        xhr.onreadystatechange = () => {
          if (xhr.readyState !== HEADERS_RECEIVED) return;
          const stream = new ReadableStream<Uint8Array>({ start: (c) => void (body = c) });
          resolve(new Response(stream, { status: xhr.status, headers: headersOf(xhr) }));
        };
        xhr.onprogress = take;
        xhr.onload = () => {
          take();
          body?.close();
        };
        // Before the headers the promise rejects; after them the body fails instead.
        xhr.onerror = () => {
          reject(new TypeError('The upload failed'));
          body?.error(new TypeError('The answer was cut off'));
        };
        xhr.onabort = () => {
          reject(aborted());
          body?.error(aborted());
        };
      } else {
        xhr.onload = () => {
          const empty = xhr.status === 204 || xhr.status === 304;
          resolve(
            new Response(empty ? null : (xhr.response as Blob), {
              status: xhr.status,
              headers: headersOf(xhr),
            }),
          );
        };
        xhr.onerror = () => reject(new TypeError('The upload failed'));
        xhr.onabort = () => reject(aborted());
      }
      xhr.send(init.body ?? null);
    });

/** What an `error` event of a stream carries. */
interface StreamError {
  code: string;
  message: string;
}

/** A download's options: cancelling it. */
export interface Download {
  signal?: AbortSignal;
}

/** Creating a note from text, an image or a recording; a 403 there means the quota is used up. */
const noteCreation = /^\/api\/note\/create\//;
const notesLeftNotEnough = 'Notes left not enough this month';

/** The one typed client of the public API; every frontend calls the gateway through it. */
export const createApiClient = (options: ApiClientOptions) => {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 600_000;

  /**
   * Sends one request; a 401 refreshes the session once and retries; errors throw AppError.
   * `signal` cancels it (the promise rejects with the signal's reason).
   */
  const failWith = (error: AppError, method: string, path: string): never => {
    options.onError?.(error, { method, path });
    throw error;
  };

  /** What a failed answer means: its error body, or its status when it has none. */
  const failureOf = async (response: Response, method: string, path: string) => {
    const payload: unknown = await response.json().catch(() => undefined);
    if (response.status === 403 && noteCreation.test(path)) {
      return new AppError('NOTES_LEFT_NOT_ENOUGH', notesLeftNotEnough);
    }
    if (isErrorBody(payload)) {
      return new AppError(payload.error.code, payload.error.message, payload.error.details);
    }
    return new AppError(
      response.status >= 500 ? 'INTERNAL' : response.status === 403 ? 'FORBIDDEN' : 'BAD_REQUEST',
      `${method} ${path} answered ${response.status}`,
    );
  };

  /**
   * Sends one request as it is, within the client's timeout: through XHR when the caller
   * follows a form's upload progress in a browser. Only a failure to get an answer throws.
   */
  const transmit = async (
    url: string,
    init: RequestInit & { method: string },
    {
      signal,
      onUploadProgress,
      streamed,
      path,
    }: {
      signal?: AbortSignal | undefined;
      onUploadProgress?: UploadProgress | undefined;
      /** The answer is read as it comes (server-sent events), not once complete. */
      streamed?: boolean | undefined;
      path: string;
    },
  ): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const transport =
        onUploadProgress && init.body instanceof FormData && !options.fetch && xhrClass()
          ? fetchWithUploadProgress(xhrClass() as new () => Xhr, onUploadProgress, streamed)
          : doFetch;
      return await transport(url, {
        ...init,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      // Cancelled by the caller: not a failure, the caller's reason goes back unchanged.
      if (signal?.aborted) throw error;
      return failWith(
        timeout.aborted
          ? new AppError('TIMEOUT', `${init.method} ${path} took longer than ${timeoutMs} ms`)
          : new AppError('UNAVAILABLE', 'The server could not be reached', {
              cause: String(error),
            }),
        init.method,
        path,
      );
    }
  };

  /**
   * Sends one request; a 401 refreshes the session once and retries; errors throw AppError.
   * `signal` cancels it (the promise rejects with the signal's reason).
   */
  const send = async (
    method: string,
    path: string,
    body: unknown,
    accept: string,
    {
      retried = false,
      signal,
      onUploadProgress,
    }: { retried?: boolean; signal?: AbortSignal; onUploadProgress?: UploadProgress } = {},
  ): Promise<Response> => {
    const token = await options.getToken();
    const headers: Record<string, string> = { accept };
    if (token) headers.authorization = `Bearer ${token}`;
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    const response = await transmit(
      `${options.baseUrl}${path}`,
      {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      },
      // Server-sent events are read as they come, also when the upload is followed.
      { signal, onUploadProgress, streamed: accept === 'text/event-stream', path },
    );
    if (response.status === 401 && !retried && options.refresh && (await options.refresh())) {
      return send(method, path, body, accept, { retried: true, signal, onUploadProgress });
    }
    if (response.ok) return response;
    return failWith(await failureOf(response, method, path), method, path);
  };

  /**
   * Calls one route of the API by its contract: `params` fill the path, `query` the query
   * string (undefined values left out), `body` goes as JSON (or as is for FormData).
   */
  const request = async <C extends Contract>(
    route: C,
    input: RequestInput = {},
    options: { signal?: AbortSignal; onUploadProgress?: UploadProgress } = {},
  ): Promise<AnswerOf<C>> => {
    const path = `${fillPath(route.path, input.params)}${queryString(input.query ?? {})}`;
    const response = await send(
      route.method.toUpperCase(),
      path,
      input.body,
      'application/json',
      options,
    );
    if (response.status === 204) return undefined as AnswerOf<C>;
    return (await response.json().catch(() => undefined)) as AnswerOf<C>;
  };

  /**
   * Posts a request answered with server-sent events and hands each event over as it comes.
   * Resolves after `done`; an `error` event, or a stream cut off before `done`, throws AppError.
   * Aborting `signal` closes the connection, which stops the work upstream.
   */
  const stream = async <E extends { type: string }>(
    route: Contract,
    body: unknown,
    {
      signal,
      onEvent,
      onUploadProgress,
    }: {
      signal?: AbortSignal;
      onEvent: (event: E) => void;
      onUploadProgress?: UploadProgress | undefined;
    },
  ): Promise<void> => {
    const path = route.path;
    const response = await send('POST', path, body, 'text/event-stream', {
      ...(signal ? { signal } : {}),
      ...(onUploadProgress ? { onUploadProgress } : {}),
    });
    let ended: AppError | 'done' | undefined;
    const parser = createParser({
      onEvent: ({ data }) => {
        const event = JSON.parse(data) as E | { type: 'error'; error: StreamError };
        if (event.type === 'error') {
          const { code, message } = (event as { error: StreamError }).error;
          ended = new AppError(code in errorCodes ? (code as ErrorCode) : 'INTERNAL', message);
          return;
        }
        if (event.type === 'done') ended = 'done';
        onEvent(event as E);
      },
    });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new AppError('UNAVAILABLE', `POST ${path} answered without a body`);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } finally {
      reader.releaseLock();
    }
    if (ended instanceof AppError) failWith(ended, 'POST', path);
    if (ended !== 'done') {
      failWith(new AppError('UNAVAILABLE', 'The answer was cut off'), 'POST', path);
    }
  };

  type Events = { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void };
  const byNote = (noteId: string) => ({ params: { id: noteId } });

  /**
   * Fetches a file a route answers and gives back the Response, so the caller reads its body as
   * it likes (a Blob, or a stream for progress) and its name from Content-Disposition.
   */
  const download = (route: Contract, input: RequestInput, { signal }: Download = {}) =>
    send(
      'GET',
      `${fillPath(route.path, input.params)}${queryString(input.query ?? {})}`,
      undefined,
      route.answer.kind === 'file' ? route.answer.mediaTypes.join(', ') : '*/*',
      signal ? { signal } : {},
    );
  /** A file upload's options: its progress (through XHR in a browser) and cancelling. */
  type Upload = { signal?: AbortSignal; onUploadProgress?: UploadProgress };
  const formOf = (field: string, data: Blob, fileName: string) => {
    const form = new FormData();
    form.append(field, data, fileName);
    return form;
  };

  /**
   * Sends a file to a signed upload address: the object store itself (no token goes there) or
   * this server's upload route. The store answers in XML; its refusals become AppErrors.
   */
  const uploadTo = async (target: UploadTarget, file: Blob, fileName: string, upload: Upload) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
    form.append('file', file, fileName);
    const direct = /^https?:\/\//i.test(target.url);
    const path = direct ? new URL(target.url).pathname : target.url;
    const response = await transmit(
      direct ? target.url : `${options.baseUrl}${target.url}`,
      { method: 'POST', body: form },
      { signal: upload.signal, onUploadProgress: upload.onUploadProgress, path },
    );
    if (response.ok) return;
    if (!direct) failWith(await failureOf(response, 'POST', path), 'POST', path);
    const answer = await response.text().catch(() => '');
    failWith(
      /EntityTooLarge/.test(answer)
        ? new AppError(
            'PAYLOAD_TOO_LARGE',
            `The file is larger than the ${target.maxBytes} bytes allowed`,
          )
        : response.status === 403
          ? new AppError('FORBIDDEN', 'The upload address has expired; try again')
          : new AppError('UNAVAILABLE', `The file store answered ${response.status}`),
      'POST',
      path,
    );
  };

  return {
    /** Any route, by its contract: `client.request(routes.noteGet, { params: { id } })`. */
    request,
    me: () => request(routes.userMe),
    notes: {
      list: (query: NoteListQuery = {}, options: { signal?: AbortSignal } = {}) =>
        request(routes.noteList, { query: { ...query } }, options),
      get: (id: string) => request(routes.noteGet, byNote(id)),
      create: (note: NoteCreate) => request(routes.noteCreateDirect, { body: note }),
      update: (id: string, patch: NoteUpdate) =>
        request(routes.noteUpdate, { ...byNote(id), body: patch }),
      remove: (id: string) => request(routes.noteDelete, byNote(id)),
      pinned: (query: NotePinnedQuery = {}) =>
        request(routes.notePinnedList, { query: { ...query } }),
      pin: (noteId: string) => request(routes.notePin, { body: { noteId } }),
      unpin: (noteId: string) => request(routes.noteUnpin, { body: { noteId } }),
      share: (noteId: string) => request(routes.noteShare, { body: { noteId } }),
      unshare: (noteId: string) => request(routes.noteUnshare, { body: { noteId } }),
      batch: (ids: string[]) => request(routes.noteBatch, { query: { ids: ids.join(',') } }),
      changedBetween: (from: string, to: string) =>
        request(routes.noteTimeRange, { query: { from, to } }),
    },
    links: {
      get: (noteId: string) => request(routes.noteLinks, byNote(noteId)),
      add: (noteId: string, targetId: string) =>
        request(routes.noteAddLink, { body: { noteId, targetId } }),
      remove: (noteId: string, targetId: string) =>
        request(routes.noteRemoveLink, { body: { noteId, targetId } }),
      graph: (query: NoteGraphQuery = {}) => request(routes.noteGraph, { query: { ...query } }),
    },
    images: {
      /**
       * Reads an image the owner may see (`/api/notes/{id}/images/{name}`) with the bearer
       * token, which an <img> element cannot send; show it through URL.createObjectURL.
       */
      read: async (url: string): Promise<Blob> => {
        if (!url.startsWith('/api/')) throw new AppError('BAD_REQUEST', 'Not an image of a note');
        return (await send('GET', url, undefined, 'image/*')).blob();
      },
      /** Uploads one image (multipart field `image`); answers the stored image and the note. */
      upload: (noteId: string, image: Blob, fileName = 'image') => {
        const form = new FormData();
        form.append('image', image, fileName);
        return request(routes.noteImageUpload, { ...byNote(noteId), body: form });
      },
      remove: (noteId: string, imageUrl: string) =>
        request(routes.noteImageRemove, { ...byNote(noteId), body: { imageUrl } }),
    },
    capture: {
      /** A note from an image (multipart field `image`), its text read in the background. */
      image: (image: Blob, fileName = 'image', upload: Upload = {}) =>
        request(routes.noteCreateByImage, { body: formOf('image', image, fileName) }, upload),
      /** A note from a recording made in the browser (`byaudio`) or a chosen file (`byaudiofile`). */
      audio: (audio: Blob, fileName: string, origin: 'recording' | 'upload', upload: Upload = {}) =>
        request(
          origin === 'recording' ? routes.noteCreateByAudio : routes.noteCreateByAudioFile,
          { body: formOf('audio', audio, fileName) },
          upload,
        ),
      audioUrl: (audioUrl: string) => request(routes.noteCreateByAudioUrl, { body: { audioUrl } }),
      link: (url: string) => request(routes.noteCreateByLink, { body: { url } }),
      pdf: (pdf: Blob, fileName = 'document.pdf', upload: Upload = {}) =>
        request(routes.noteCreateByPdf, { body: formOf('pdf', pdf, fileName) }, upload),
      /**
       * A note from a large audio file or PDF: sent straight to storage through a signed
       * address (`/api/config/s3credentials`), with progress, then made into a note.
       */
      upload: async (kind: UploadKind, file: Blob, fileName: string, upload: Upload = {}) => {
        const signal = upload.signal ? { signal: upload.signal } : {};
        const target = await request(
          routes.uploadCreate,
          { body: { kind, name: fileName, bytes: file.size } },
          signal,
        );
        await uploadTo(target, file, fileName, upload);
        return request(routes.noteCreateByUpload, { body: { uploadId: target.uploadId } }, signal);
      },
      retry: (noteId: string) => request(routes.noteCaptureRetry, { body: { noteId } }),
      dismissTags: (noteId: string) => request(routes.noteCaptureTagsDismiss, { body: { noteId } }),
      /** The file a note was captured from (`/api/notes/{id}/files/{name}`), as a Blob. */
      file: async (url: string): Promise<Blob> => {
        if (!url.startsWith('/api/')) throw new AppError('BAD_REQUEST', 'Not a file of a note');
        return (await send('GET', url, undefined, '*/*')).blob();
      },
    },
    todos: {
      recent: (query: TodoRecentQuery = {}) => request(routes.todoRecent, { query: { ...query } }),
      set: (noteId: string, index: number, done: boolean, expectedText?: string) =>
        request(routes.todoSet, {
          params: { id: noteId, index },
          body: { done, ...(expectedText === undefined ? {} : { expectedText }) },
        }),
    },
    review: {
      due: (query: { limit?: number } = {}) => request(routes.reviewDue, { query }),
      dueOf: (userId: string, query: { limit?: number } = {}) =>
        request(routes.reviewDueOf, { params: { userId }, query }),
      mark: (mark: ReviewMark) => request(routes.reviewMark, { body: mark }),
    },
    tags: {
      list: () => request(routes.tagList),
      rename: (tag: string, name: string) =>
        request(routes.tagRename, { params: { tag }, body: { name } }),
      remove: (tag: string) => request(routes.tagDelete, { params: { tag } }),
    },
    ai: {
      settings: () => request(routes.aiSettingsGet),
      updateSettings: (update: AiSettingsUpdate) =>
        request(routes.aiSettingsUpdate, { body: update }),
      assist: (body: WriterAssist, options: Events) =>
        stream<AiStreamEvent>(routes.aiWriterAssist, body, options),
      askAi: (body: WriterAskAi, options: Events) =>
        stream<AiStreamEvent>(routes.aiWriterAskAi, body, options),
      summarizeNote: (noteId: string) => request(routes.aiSummarizeNote, { body: { noteId } }),
      summarizePeriod: (kind: SummaryPeriodKind, query: PeriodSummaryQuery = {}) =>
        request(routes.aiSummarizePeriod, { params: { kind }, query: { ...query } }),
      search: (query: AiSearchQuery, options: { signal?: AbortSignal } = {}) =>
        request(routes.aiSearch, { query: { ...query } }, options),
      related: (query: RelatedQuery) => request(routes.aiRelated, { query: { ...query } }),
    },
    knowledge: {
      answer: (body: ChatAnswerRequest, options: Events) =>
        stream<AiStreamEvent>(routes.knowledgeChatAnswer, body, options),
      chats: (query: ChatListQuery = {}) =>
        request(routes.knowledgeChatList, { query: { ...query } }),
      chat: (chatId: string) => request(routes.knowledgeChatGet, { params: { chatId } }),
      removeChat: (chatId: string) => request(routes.knowledgeChatDelete, { params: { chatId } }),
      generate: (body: KnowledgeGenerate) => request(routes.knowledgeGenerate, { body }),
    },
    generate: {
      byContent: (body: GenerateByContent) => request(routes.noteGenerateByContent, { body }),
      byTranscription: (body: GenerateByTranscription) =>
        request(routes.noteGenerateByTranscription, { body }),
      analyzeImages: (body: ImageAnalyze) => request(routes.noteImagesAnalyze, { body }),
    },
    public: {
      note: (publicId: string) => request(routes.notePublic, { params: { publicId } }),
      /** The address of an image of a shared note, for an <img> (no token needed). */
      imageUrl: (publicId: string, name: string) =>
        `${options.baseUrl}${fillPath(routes.notePublicImage.path, { publicId, name })}`,
    },
    users: {
      bySub: (sub: string) => request(routes.userFindBySub, { params: { sub } }),
      bySubAtOldPath: (sub: string) => request(routes.userBySub, { params: { sub } }),
      check: () => request(routes.userCheck),
      create: (user: UserCreate) => request(routes.userCreate, { body: user }),
      usage: () => request(routes.userUsage),
      /**
       * Deletes the signed-in account (`confirm`: its email). Sign out right after: every later
       * request with this account's tokens answers 401 ACCOUNT_DELETED.
       */
      delete: (body: UserDeleteRequest) => request(routes.userDelete, { body }),
    },
    billing: {
      plans: () => request(routes.billingPlans),
      status: () => request(routes.billingStatus),
      verify: (sessionId: string) => request(routes.billingVerify, { params: { sessionId } }),
      checkout: (body: CheckoutRequest) => request(routes.billingCheckout, { body }),
      change: (body: PlanChange) => request(routes.billingChange, { body }),
      cancel: () => request(routes.billingCancel),
      portal: () => request(routes.billingPortal),
    },
    live: {
      /** A token for the live connection; connect to its `url` with a WebSocket. */
      token: () => request(routes.liveToken),
    },
    export: {
      /** One note as a PDF. */
      pdf: (noteId: string, options: Download = {}) =>
        download(routes.noteExportPdf, { query: { id: noteId } }, options),
      /** One note as a PNG card. */
      image: (noteId: string, theme: 'light' | 'dark' = 'light', options: Download = {}) =>
        download(routes.noteExportImage, { query: { id: noteId, theme } }, options),
      /** One note as a .md file (`link`) or a .zip of it and its images (`bundle`). */
      markdown: (noteId: string, images: MarkdownImages = 'link', options: Download = {}) =>
        download(routes.noteExportMarkdown, { query: { id: noteId, images } }, options),
      /**
       * Every note as one .zip, streamed: read `body` through countExportedNotes against the
       * X-Noted-Notes-Total header to show progress.
       */
      all: (options: Download = {}) => download(routes.exportAll, {}, options),
      /**
       * Everything Noted holds about the user as one .zip, streamed (notes under notes/:
       * countExportedNotes('notes/') against X-Noted-Notes-Total shows progress).
       */
      accountData: (options: Download = {}) => download(routes.userData, {}, options),
    },
    imports: {
      /**
       * Imports one Markdown file or a .zip (Markdown files and their images, or a Notion
       * export) as the signed-in user's notes. Refusals (IMPORT_UNSUPPORTED, ZIP_INVALID,
       * IMPORT_EMPTY, NOTES_LEFT_NOT_ENOUGH with details { needed, left }, PAYLOAD_TOO_LARGE)
       * throw before anything is written; then `onProgress` follows it and the result is
       * answered. Aborting `signal` stops the import between two notes.
       */
      file: async (
        file: Blob,
        options: {
          fileName?: string;
          /** The file's bytes sent (through XHR in a browser), before the import's progress. */
          onUploadProgress?: UploadProgress;
          onProgress?: (progress: ImportProgress) => void;
          signal?: AbortSignal;
        } = {},
      ): Promise<ImportResult> => {
        const name = options.fileName ?? (file as Blob & { name?: string }).name ?? 'import.zip';
        let result: ImportResult | undefined;
        await stream<ImportEvent>(routes.importFile, formOf('file', file, name), {
          ...(options.signal ? { signal: options.signal } : {}),
          onUploadProgress: options.onUploadProgress,
          onEvent: (event) => {
            if (event.type === 'progress') {
              const { type: _, ...progress } = event;
              options.onProgress?.(progress);
            } else if (event.type === 'done') {
              const { type: _, ...done } = event;
              result = done;
            }
          },
        });
        return result as ImportResult;
      },
    },
    feedback: {
      /**
       * Sends feedback, signed in (the token goes along when there is one) or not. Refusals:
       * VALIDATION_FAILED, NOT_AN_IMAGE (the screenshot), RATE_LIMITED (Retry-After).
       */
      send: (body: FeedbackSend) => request(routes.feedbackSend, { body }),
      /** The feedback one sent signed in, newest first. */
      mine: (query: FeedbackListQuery = {}) =>
        request(routes.feedbackMine, { query: { ...query } }),
      /** The screenshot one sent with a feedback, as a Blob. */
      mineScreenshot: async (id: string, options: Download = {}): Promise<Blob> =>
        (await download(routes.feedbackMineScreenshot, { params: { id } }, options)).blob(),
    },
    admin: {
      /** The feedback received, newest first; FORBIDDEN without the operator role. */
      feedback: (query: FeedbackListQuery = {}) =>
        request(routes.feedbackList, { query: { ...query } }),
      /** The screenshot sent with one feedback, as a Blob (show it through URL.createObjectURL). */
      feedbackScreenshot: async (id: string, options: Download = {}): Promise<Blob> =>
        (await download(routes.feedbackScreenshot, { params: { id } }, options)).blob(),
    },
    notion: {
      /** The Notion connection's state (never its token). */
      get: () => request(routes.notionConnectionGet),
      /** Connects with an integration token and starts the first sync. */
      connect: (body: NotionConnect) => request(routes.notionConnect, { body }),
      /** Forgets the token; the notes made stay. */
      disconnect: () => request(routes.notionDisconnect),
      /** Starts a sync now. */
      sync: () => request(routes.notionSyncNow),
    },
  };
};

/** What a call sends besides its route. */
export interface RequestInput {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

const queryString = (params: Record<string, string | number | boolean | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};

export type ApiClient = ReturnType<typeof createApiClient>;
