import { createParser } from 'eventsource-parser';
import type {
  AiHitList,
  AiSearchQuery,
  AiSettings,
  AiSettingsUpdate,
  AiStreamEvent,
  Chat,
  ChatAnswerRequest,
  ChatList,
  ChatListQuery,
  GenerateByContent,
  GenerateByTranscription,
  GeneratedNote,
  ImageAnalysis,
  ImageAnalyze,
  KnowledgeGenerate,
  NoteSummary,
  PeriodSummary,
  PeriodSummaryQuery,
  RelatedQuery,
  SummaryPeriodKind,
  WriterAskAi,
  WriterAssist,
} from './ai.js';
import { AppError, errorCodes, isErrorBody, type ErrorCode } from './errors.js';
import type {
  Note,
  NoteCreate,
  NoteItems,
  NoteListQuery,
  NotePinnedQuery,
  NoteUpdate,
  PublicNote,
  ShareResult,
  TagCount,
  TagList,
} from './notes.js';
import type { NoteImageUploaded } from './images.js';
import type { NoteGraph, NoteGraphQuery, NoteLinks } from './links.js';
import type { ReviewDueList, ReviewMark, ReviewSchedule } from './review.js';
import type { SearchPage } from './search.js';
import type { Todo, TodoList, TodoRecentQuery } from './todos.js';
import type { User } from './users.js';

export interface ApiClientOptions {
  /** Origin and path prefix of the gateway, '' for same origin. */
  baseUrl: string;
  /** Returns a fresh bearer token, or undefined when signed out. */
  getToken: () => Promise<string | undefined>;
  /** Called once on a 401 to refresh the session; true means retry the call. */
  refresh?: () => Promise<boolean>;
  /** Default 600000 ms (10 min): AI and uploads may take long. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Sees every failure just before it is thrown (to log it, or to react to its code). */
  onError?: (error: AppError, request: { method: string; path: string }) => void;
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
   * Sends one request; a 401 refreshes the session once and retries; errors throw AppError.
   * `signal` cancels it (the promise rejects with the signal's reason).
   */
  const send = async (
    method: string,
    path: string,
    body: unknown,
    accept: string,
    { retried = false, signal }: { retried?: boolean; signal?: AbortSignal } = {},
  ): Promise<Response> => {
    const token = await options.getToken();
    const headers: Record<string, string> = { accept };
    if (token) headers.authorization = `Bearer ${token}`;
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      // Cancelled by the caller: not a failure, the caller's reason goes back unchanged.
      if (signal?.aborted) throw error;
      return failWith(
        timeout.aborted
          ? new AppError('TIMEOUT', `${method} ${path} took longer than ${timeoutMs} ms`)
          : new AppError('UNAVAILABLE', 'The server could not be reached', {
              cause: String(error),
            }),
        method,
        path,
      );
    }
    if (response.status === 401 && !retried && options.refresh && (await options.refresh())) {
      return send(method, path, body, accept, { retried: true, signal });
    }
    if (response.ok) return response;
    return failWith(await failureOf(response, method, path), method, path);
  };

  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> => {
    const response = await send(method, path, body, 'application/json', { signal });
    if (response.status === 204) return undefined as T;
    return (await response.json().catch(() => undefined)) as T;
  };

  /**
   * Posts a request answered with server-sent events and hands each event over as it comes.
   * Resolves after `done`; an `error` event, or a stream cut off before `done`, throws AppError.
   * Aborting `signal` closes the connection, which stops generation upstream.
   */
  const stream = async (
    path: string,
    body: unknown,
    { signal, onEvent }: { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void },
  ): Promise<void> => {
    const response = await send('POST', path, body, 'text/event-stream', { signal });
    let ended: AppError | 'done' | undefined;
    const parser = createParser({
      onEvent: ({ data }) => {
        const event = JSON.parse(data) as AiStreamEvent;
        if (event.type === 'error') {
          const { code, message } = event.error;
          ended = new AppError(code in errorCodes ? (code as ErrorCode) : 'INTERNAL', message);
          return;
        }
        if (event.type === 'done') ended = 'done';
        onEvent(event);
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

  const query = (params: Record<string, string | number | boolean | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) search.set(key, String(value));
    }
    const text = search.toString();
    return text ? `?${text}` : '';
  };

  return {
    me: () => call<User>('GET', '/user'),
    notes: {
      list: (params: NoteListQuery = {}, { signal }: { signal?: AbortSignal } = {}) =>
        call<SearchPage>('GET', `/api/notes${query({ ...params })}`, undefined, signal),
      get: (id: string) => call<Note>('GET', `/api/notes/${encodeURIComponent(id)}`),
      create: (note: NoteCreate) => call<Note>('POST', '/api/note/create/direct', note),
      update: (id: string, patch: NoteUpdate) =>
        call<Note>('PUT', `/api/notes/${encodeURIComponent(id)}`, patch),
      remove: (id: string) => call<void>('DELETE', `/api/notes/${encodeURIComponent(id)}`),
      pinned: (params: NotePinnedQuery = {}) =>
        call<NoteItems>('GET', `/api/notes/pinned${query({ ...params })}`),
      pin: (noteId: string) => call<Note>('POST', '/api/note/pin', { noteId }),
      unpin: (noteId: string) => call<Note>('POST', '/api/note/unpin', { noteId }),
      share: (noteId: string) => call<ShareResult>('POST', '/api/note/share', { noteId }),
      unshare: (noteId: string) => call<Note>('POST', '/api/note/unshare', { noteId }),
      batch: (ids: string[]) =>
        call<NoteItems>('GET', `/api/notes/batch${query({ ids: ids.join(',') })}`),
    },
    links: {
      get: (noteId: string) =>
        call<NoteLinks>('GET', `/api/notes/${encodeURIComponent(noteId)}/links`),
      add: (noteId: string, targetId: string) =>
        call<NoteLinks>('POST', '/api/note/addlink', { noteId, targetId }),
      remove: (noteId: string, targetId: string) =>
        call<NoteLinks>('POST', '/api/note/removelink', { noteId, targetId }),
      graph: (params: NoteGraphQuery = {}) =>
        call<NoteGraph>('GET', `/api/notes/graph${query({ ...params })}`),
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
        return call<NoteImageUploaded>(
          'POST',
          `/api/notes/${encodeURIComponent(noteId)}/images`,
          form,
        );
      },
      remove: (noteId: string, imageUrl: string) =>
        call<Note>('DELETE', `/api/notes/${encodeURIComponent(noteId)}/images`, { imageUrl }),
    },
    todos: {
      recent: (params: TodoRecentQuery = {}) =>
        call<TodoList>('GET', `/api/todos/recent${query({ ...params })}`),
      set: (noteId: string, index: number, done: boolean, expectedText?: string) =>
        call<Todo>('PUT', `/api/notes/${encodeURIComponent(noteId)}/todos/${index}`, {
          done,
          ...(expectedText === undefined ? {} : { expectedText }),
        }),
    },
    review: {
      due: (params: { limit?: number } = {}) =>
        call<ReviewDueList>('GET', `/api/notes/review${query({ ...params })}`),
      mark: (mark: ReviewMark) => call<ReviewSchedule>('POST', '/api/note/review', mark),
    },
    tags: {
      list: () => call<TagList>('GET', '/api/tags'),
      rename: (tag: string, name: string) =>
        call<TagCount>('PUT', `/api/tags/${encodeURIComponent(tag)}`, { name }),
      remove: (tag: string) => call<void>('DELETE', `/api/tags/${encodeURIComponent(tag)}`),
    },
    ai: {
      settings: () => call<AiSettings>('GET', '/ai/settings'),
      updateSettings: (update: AiSettingsUpdate) => call<AiSettings>('PUT', '/ai/settings', update),
      assist: (
        body: WriterAssist,
        options: { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void },
      ) => stream('/ai/writer/assist', body, options),
      askAi: (
        body: WriterAskAi,
        options: { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void },
      ) => stream('/ai/writer/askai', body, options),
      summarizeNote: (noteId: string) =>
        call<NoteSummary>('POST', '/ai/note/assist/summarize/note', { noteId }),
      summarizePeriod: (kind: SummaryPeriodKind, params: PeriodSummaryQuery = {}) =>
        call<PeriodSummary>('GET', `/ai/note/assist/summarize/${kind}${query({ ...params })}`),
      search: (params: AiSearchQuery, { signal }: { signal?: AbortSignal } = {}) =>
        call<AiHitList>('GET', `/ai/note/assist/search${query({ ...params })}`, undefined, signal),
      related: (params: RelatedQuery) =>
        call<AiHitList>('GET', `/ai/note/assist/related${query({ ...params })}`),
    },
    knowledge: {
      answer: (
        body: ChatAnswerRequest,
        options: { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void },
      ) => stream('/api/knowledge/chat/answer', body, options),
      chats: (params: ChatListQuery = {}) =>
        call<ChatList>('GET', `/api/knowledge/chat/history${query({ ...params })}`),
      chat: (chatId: string) =>
        call<Chat>('GET', `/api/knowledge/chat/history/${encodeURIComponent(chatId)}`),
      removeChat: (chatId: string) =>
        call<void>('DELETE', `/api/knowledge/chat/history/${encodeURIComponent(chatId)}`),
      generate: (body: KnowledgeGenerate) =>
        call<GeneratedNote>('POST', '/api/knowledge/generate', body),
    },
    generate: {
      byContent: (body: GenerateByContent) =>
        call<GeneratedNote>('POST', '/api/note/generate/bycontent', body),
      byTranscription: (body: GenerateByTranscription) =>
        call<GeneratedNote>('POST', '/api/note/generate/bytranscription', body),
      analyzeImages: (body: ImageAnalyze) =>
        call<ImageAnalysis>('POST', '/api/note/images/analyze', body),
    },
    public: {
      note: (publicId: string) =>
        call<PublicNote>('GET', `/public/note/${encodeURIComponent(publicId)}`),
    },
  };
};

export type ApiClient = ReturnType<typeof createApiClient>;
