import { AppError, isErrorBody } from './errors.js';
import type {
  Note,
  NoteCreate,
  NoteItems,
  NoteListQuery,
  NoteUpdate,
  PublicNote,
  ShareResult,
  TagCount,
  TagList,
} from './notes.js';
import type { SearchPage } from './search.js';
import type { User } from './users.js';

export interface ApiClientOptions {
  /** Origin and path prefix of the gateway, '' for same origin. */
  baseUrl: string;
  /** Returns a fresh bearer token, or undefined when signed out. */
  getToken: () => Promise<string | undefined>;
  /** Called once on a 401 to refresh the session; true means retry the call. */
  refresh?: () => Promise<boolean>;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The one typed client of the public API; every frontend calls the gateway through it. */
export const createApiClient = (options: ApiClientOptions) => {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 600_000;

  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    retried = false,
  ): Promise<T> => {
    const token = await options.getToken();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await doFetch(`${options.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 401 && !retried && options.refresh && (await options.refresh())) {
      return call<T>(method, path, body, true);
    }
    if (response.status === 204) return undefined as T;
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (isErrorBody(payload)) throw new AppError(payload.error.code, payload.error.message);
      throw new AppError(
        response.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST',
        `${method} ${path} answered ${response.status}`,
      );
    }
    return payload as T;
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
      list: (params: NoteListQuery = {}) =>
        call<SearchPage>('GET', `/api/notes${query({ ...params })}`),
      get: (id: string) => call<Note>('GET', `/api/notes/${encodeURIComponent(id)}`),
      create: (note: NoteCreate) => call<Note>('POST', '/api/note/create/direct', note),
      update: (id: string, patch: NoteUpdate) =>
        call<Note>('PUT', `/api/notes/${encodeURIComponent(id)}`, patch),
      remove: (id: string) => call<void>('DELETE', `/api/notes/${encodeURIComponent(id)}`),
      pinned: () => call<NoteItems>('GET', '/api/notes/pinned'),
      pin: (noteId: string) => call<Note>('POST', '/api/note/pin', { noteId }),
      unpin: (noteId: string) => call<Note>('POST', '/api/note/unpin', { noteId }),
      share: (noteId: string) => call<ShareResult>('POST', '/api/note/share', { noteId }),
      unshare: (noteId: string) => call<Note>('POST', '/api/note/unshare', { noteId }),
    },
    tags: {
      list: () => call<TagList>('GET', '/api/tags'),
      rename: (tag: string, name: string) =>
        call<TagCount>('PUT', `/api/tags/${encodeURIComponent(tag)}`, { name }),
      remove: (tag: string) => call<void>('DELETE', `/api/tags/${encodeURIComponent(tag)}`),
    },
    public: {
      note: (publicId: string) =>
        call<PublicNote>('GET', `/public/note/${encodeURIComponent(publicId)}`),
    },
  };
};

export type ApiClient = ReturnType<typeof createApiClient>;
