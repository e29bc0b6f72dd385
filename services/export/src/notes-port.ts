import {
  AppError,
  isErrorBody,
  routes,
  fillPath,
  type Contract,
  type Note,
  type NoteImageUploaded,
  type NoteItems,
  type UserUsage,
} from '@noted/api';
import { IDENTITY_HEADER, identitySigner, type Identity } from '@noted/kit';
import type { ImportNotesPort } from './import/index.js';

/** The notes service as one user's import writes to it, and what the planning asks of it. */
export interface UserNotesPort extends ImportNotesPort {
  /** Which of these ids (at most 100) are notes of the user's. */
  existing(ids: string[]): Promise<string[]>;
  /** New notes the user may still make this month; null when unlimited. */
  notesLeft(): Promise<number | null>;
}

export interface NotesPortOptions extends UserCallerOptions {
  /** The notes service's internal HTTP origin. */
  notesUrl: string;
  /** The users service's internal HTTP origin (the month's usage). */
  usersUrl: string;
}

export interface UserCallerOptions {
  internalSecret: string;
  /** Per request; default 60 s (an image is re-encoded before the answer). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface CallInput {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

/**
 * Calls Noted services' own HTTP routes as the user, the way the gateway does: the caller's
 * identity signed with the internal secret in IDENTITY_HEADER. So what the export service does
 * for a user goes through the same checks as the user's own requests (ownership, validation,
 * the image pipeline, the monthly quota, the events those services publish); it never touches
 * their tables. `call` answers the JSON, `download` the bytes of a file route; a refusal is the
 * service's own AppError.
 */
export const createUserCaller = (options: UserCallerOptions) => {
  const sign = identitySigner(options.internalSecret);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 60_000;

  const request = async (
    identity: Identity,
    origin: string,
    route: Contract,
    input: CallInput,
    accept: string,
  ): Promise<Response> => {
    const path = `${fillPath(route.path, input.params)}${input.query ?? ''}`;
    const headers: Record<string, string> = {
      [IDENTITY_HEADER]: await sign(identity),
      accept,
    };
    const form = input.body instanceof FormData;
    if (input.body !== undefined && !form) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${origin}${path}`, {
        method: route.method.toUpperCase(),
        headers,
        body:
          input.body === undefined
            ? undefined
            : form
              ? (input.body as FormData)
              : JSON.stringify(input.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw error instanceof DOMException && error.name === 'TimeoutError'
        ? new AppError('TIMEOUT', `${route.method.toUpperCase()} ${route.path} took too long`)
        : new AppError('UNAVAILABLE', `${route.service} could not be reached`);
    }
    if (response.ok) return response;
    const payload: unknown = await response.json().catch(() => undefined);
    if (isErrorBody(payload)) {
      throw new AppError(payload.error.code, payload.error.message, payload.error.details);
    }
    throw new AppError(
      response.status >= 500 ? 'UNAVAILABLE' : 'BAD_REQUEST',
      `${route.method.toUpperCase()} ${route.path} answered ${response.status}`,
    );
  };

  return {
    call: async <T>(identity: Identity, origin: string, route: Contract, input: CallInput = {}) => {
      const response = await request(identity, origin, route, input, 'application/json');
      return (response.status === 204 ? undefined : await response.json()) as T;
    },
    download: async (identity: Identity, origin: string, route: Contract, input: CallInput = {}) =>
      Buffer.from(await (await request(identity, origin, route, input, '*/*')).arrayBuffer()),
  };
};

export type UserCaller = ReturnType<typeof createUserCaller>;

/**
 * The notes (and users) services as an import writes to them, as the user (`createUserCaller`).
 */
export const createNotesPort = (options: NotesPortOptions) => {
  const { call } = createUserCaller(options);

  /** Everything one user's import does, as that user. */
  const as = (identity: Identity): UserNotesPort => {
    if (!identity.userId) throw new AppError('UNAUTHENTICATED', 'Sign in first');
    const notes = <T>(route: Contract, input?: CallInput) =>
      call<T>(identity, options.notesUrl, route, input);
    return {
      create: (note) => notes<Note>(routes.noteCreateDirect, { body: note }),
      update: (id, patch) => notes<Note>(routes.noteUpdate, { params: { id }, body: patch }),
      get: (id) => notes<Note>(routes.noteGet, { params: { id } }),
      uploadImage: (noteId, bytes, fileName) => {
        const form = new FormData();
        form.append('image', new Blob([Buffer.from(bytes)]), fileName);
        return notes<NoteImageUploaded>(routes.noteImageUpload, {
          params: { id: noteId },
          body: form,
        });
      },
      existing: async (ids) => {
        if (ids.length === 0) return [];
        const found = await notes<NoteItems>(routes.noteBatch, {
          query: `?ids=${encodeURIComponent(ids.join(','))}`,
        });
        return found.items.map((note) => note.id);
      },
      notesLeft: async () => {
        const usage = await call<UserUsage>(identity, options.usersUrl, routes.userUsage);
        const { used, limit } = usage.notes;
        return limit < 0 ? null : Math.max(limit - used, 0);
      },
    };
  };
  return { as };
};

export type NotesPort = ReturnType<typeof createNotesPort>;
