import { AppError, freePlanFrom, planEntitlements } from '@noted/api';
import type {
  AiHit,
  AiSettings,
  AiStreamEvent,
  Chat,
  ChatMessage,
  GeneratedNote,
  LinkedNote,
  Note,
  NoteCapture,
  NoteCreate,
  NoteLinks,
  NoteListQuery,
  NoteSummary,
  NoteUpdate,
  PeriodSummary,
  PeriodSummaryQuery,
  SearchHit,
  SearchPage,
  SummaryPeriodKind,
} from '@noted/api';
import type { Messages, ShellServices } from '@noted/ui';
import { createHostedTestShell, createTestAccount, createTestI18n } from '@noted/ui/testing';
import { act, render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter, useLocation } from '@noted/router';
import { vi } from 'vitest';
import type { NotesApi } from './api';
import { MarkdownEditorContext, TextareaEditor, type MarkdownEditorProps } from './note/editor';
import { wikiParts } from './note/markdown';
import enAi from './messages/en/ai.json';
import enCapture from './messages/en/capture.json';
import enData from './messages/en/data.json';
import enMindlink from './messages/en/mindlink.json';
import enNote from './messages/en/note.json';
import zhAi from './messages/zh/ai.json';
import zhCapture from './messages/zh/capture.json';
import zhData from './messages/zh/data.json';
import zhMindlink from './messages/zh/mindlink.json';
import zhNote from './messages/zh/note.json';
import { NotesApp } from './NotesApp';

/** Test support: notes and an in-memory stand-in for the API calls the notes module makes. */

/** The notes remote's sets in Chinese, as shipped. */
export const chineseNotesSets = {
  note: zhNote,
  mindlink: zhMindlink,
  ai: zhAi,
  capture: zhCapture,
  data: zhData,
};

/**
 * An i18n instance with the notes remote's sets there at once, in English; with `chinese`
 * (for example `chineseNotesSets`), the page is in Chinese from those sets.
 */
export const createNotesTestI18n = (chinese?: Record<string, Messages>): I18n =>
  createTestI18n(
    { note: enNote, mindlink: enMindlink, ai: enAi, capture: enCapture, data: enData },
    chinese ? { locale: 'zh', sets: chinese } : undefined,
  );

/**
 * The shell's account of a signed-in user on the free plan: on a server with payments (the
 * spec's free plan: Markdown export only), or without them (`payments: false`: every feature
 * unless the operator's `limits`, as FREE_EXPORT_PDF=false and the like would set).
 */
export const freePlanAccount = ({
  payments,
  limits = {},
}: {
  payments: boolean;
  limits?: Parameters<typeof freePlanFrom>[0];
}) =>
  createTestAccount({
    phase: 'ready',
    subscription: {
      planName: 'free',
      status: 'inactive',
      expiresAt: null,
      isActive: false,
      entitlements: planEntitlements(freePlanFrom({ PAYMENTS_ENABLED: payments, ...limits })).free,
      interval: null,
      cancelAtPeriodEnd: false,
      trialEndsAt: null,
      paymentFailed: false,
      paymentsEnabled: payments,
    },
  });

let sequence = 0;

/** A whole, unpaged list answer, as the API gives one: page 1 of everything. */
export const listed = <T,>(items: T[]) => ({ items, total: items.length, page: 1, limit: 1000 });

export const makeNote = (overrides: Partial<Note> = {}): Note => {
  sequence += 1;
  const at = new Date(Date.UTC(2025, 0, 1, 12, sequence)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    title: `Note ${sequence}`,
    note: `Body of note ${sequence}`,
    tags: [],
    images: [],
    isPinned: false,
    publicId: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
};

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** As the service marks matches: the text HTML-escaped, each match in <mark>. */
const highlight = (text: string, search: string) => {
  const at = text.toLowerCase().indexOf(search.toLowerCase());
  if (at === -1) return undefined;
  const match = text.slice(at, at + search.length);
  return `${escapeHtml(text.slice(0, at))}<mark>${escapeHtml(match)}</mark>${escapeHtml(text.slice(at + search.length))}`;
};

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');

type Fake = { [Part in keyof NotesApi]?: Partial<NotesApi[Part]> };

type DoneEvent = Extract<AiStreamEvent, { type: 'done' }>;

/**
 * A streamed answer (writer, Ask AI, knowledge chat) that the test plays out event by event, as
 * the service sends them. Like the client, it resolves after `done` and, once its signal is
 * aborted, rejects with the signal's reason and delivers nothing more.
 */
export interface PlayedStream {
  body: unknown;
  signal: AbortSignal | undefined;
  send: (...events: AiStreamEvent[]) => void;
  tokens: (...texts: string[]) => void;
  finish: (done?: Partial<Omit<DoneEvent, 'type'>>) => Promise<void>;
  fail: (error: AppError) => Promise<void>;
}

/** The AI settings of a service without a language model (the built-in provider). */
export const localAiSettings = (): AiSettings => ({
  provider: 'local',
  models: {
    chat: null,
    embeddings: 'local-hash-256',
    retrieval: null,
    transcription: null,
    vision: null,
  },
  features: {
    writer: 'unavailable',
    askai: 'unavailable',
    summaries: 'extractive',
    search: 'extractive',
    related: 'extractive',
    chat: 'extractive',
    generate: 'extractive',
    transcription: 'unavailable',
    imageAnalysis: 'unavailable',
  },
  excludedTags: [],
  usage: { month: '2026-01', promptTokens: 0, completionTokens: 0 },
  index: { notes: 0, pending: 0, retrievalPending: 0 },
});

export const makeChat = (overrides: Partial<Chat> = {}): Chat => {
  sequence += 1;
  const at = new Date(Date.UTC(2026, 0, 1, 9, sequence)).toISOString();
  return {
    id: `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`,
    title: `Chat ${sequence}`,
    messageCount: overrides.messages?.length ?? 0,
    createdAt: at,
    updatedAt: at,
    messages: [],
    ...overrides,
  };
};

export const makeMessage = (overrides: Partial<ChatMessage> = {}): ChatMessage => {
  sequence += 1;
  return {
    id: `00000000-0000-4000-a000-${String(sequence).padStart(12, '0')}`,
    role: 'assistant',
    content: `Message ${sequence}`,
    citations: [],
    createdAt: new Date(Date.UTC(2026, 0, 1, 10, sequence)).toISOString(),
    ...overrides,
  };
};

const dayMs = 86_400_000;

/** The period holding `date`, counted in UTC (weeks from Monday), as the fake summarises it. */
const periodOf = (kind: SummaryPeriodKind, date: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const start = {
    day: Date.UTC(year, month - 1, day),
    week:
      Date.UTC(year, month - 1, day) -
      ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) * dayMs,
    month: Date.UTC(year, month - 1, 1),
    year: Date.UTC(year, 0, 1),
  }[kind];
  const end = {
    day: start + dayMs,
    week: start + 7 * dayMs,
    month: Date.UTC(year, month, 1),
    year: Date.UTC(year + 1, 0, 1),
  }[kind];
  return { from: start, to: end };
};

export interface FakeAiOptions {
  aiSettings?: Partial<AiSettings>;
  chats?: Chat[];
}

export const fakeApi = (initial: Note[] = [], options: FakeAiOptions = {}) => {
  let notes = [...initial];
  let manualLinks: { from: string; to: string }[] = [];
  let clock = Date.UTC(2026, 0, 1);

  const find = (id: string) => notes.find((n) => n.id === id);
  const change = (id: string, patch: Partial<Note>) => {
    if (!find(id)) throw notFound();
    notes = notes.map((n) => (n.id === id ? { ...n, ...patch } : n));
    return find(id) as Note;
  };
  const ordered = (pinnedFirst: boolean) =>
    pinnedFirst ? [...notes.filter((n) => n.isPinned), ...notes.filter((n) => !n.isPinned)] : notes;

  /** Wiki links go to the note with that title (case-insensitive), as the service resolves. */
  const linksOf = (id: string): NoteLinks => {
    const linked = (from: Note): LinkedNote[] => {
      const wiki = wikiParts(from.note).flatMap((part) => {
        if (!('title' in part)) return [];
        const target = notes.find(
          (n) => n.id !== from.id && n.title.toLowerCase() === part.title.toLowerCase(),
        );
        return target ? [{ id: target.id, title: target.title, kind: 'wiki' as const }] : [];
      });
      const manual = manualLinks.flatMap((link) => {
        const target = link.from === from.id ? find(link.to) : undefined;
        return target ? [{ id: target.id, title: target.title, kind: 'manual' as const }] : [];
      });
      return [...wiki, ...manual];
    };
    const note = find(id);
    if (!note) throw notFound();
    return {
      outgoing: linked(note),
      backlinks: notes.flatMap((other) =>
        linked(other)
          .filter((link) => link.id === id)
          .map((link) => ({ id: other.id, title: other.title, kind: link.kind })),
      ),
    };
  };

  const list = vi.fn(
    async (
      { page = 1, limit = 10, pinnedFirst = false, tag, search, sharedOnly }: NoteListQuery = {},
      _options: { signal?: AbortSignal } = {},
    ): Promise<SearchPage> => {
      const matching = ordered(pinnedFirst)
        .filter((n) => !tag || n.tags.includes(tag))
        .filter((n) => !sharedOnly || n.publicId !== null)
        .flatMap((n): SearchHit[] => {
          if (!search) return [n];
          const title = highlight(n.title, search);
          const note = highlight(n.note, search);
          return title || note ? [{ ...n, highlights: { title, note } }] : [];
        });
      return {
        items: matching.slice((page - 1) * limit, page * limit),
        total: matching.length,
        totalExact: true,
        page,
        limit,
      };
    },
  );
  const create = vi.fn(async (input: NoteCreate): Promise<Note> => {
    const note = makeNote({
      title: input.title ?? '',
      note: input.note ?? '',
      tags: input.tags ?? [],
    });
    notes.unshift(note);
    return note;
  });
  const get = vi.fn(async (id: string): Promise<Note> => {
    const note = find(id);
    if (!note) throw notFound();
    return note;
  });
  const update = vi.fn(async (id: string, patch: NoteUpdate): Promise<Note> => {
    const { images: _images, baseUpdatedAt, ...fields } = patch;
    if (baseUpdatedAt !== undefined && find(id)?.updatedAt !== baseUpdatedAt) {
      throw new AppError('CONFLICT', 'This note was changed elsewhere since you opened it');
    }
    clock += 60_000;
    return change(id, { ...fields, updatedAt: new Date(clock).toISOString() });
  });
  const addLink = vi.fn(async (noteId: string, targetId: string): Promise<NoteLinks> => {
    if (!find(targetId)) throw notFound();
    if (!manualLinks.some((l) => l.from === noteId && l.to === targetId)) {
      manualLinks.push({ from: noteId, to: targetId });
    }
    return linksOf(noteId);
  });
  const removeLink = vi.fn(async (noteId: string, targetId: string): Promise<NoteLinks> => {
    manualLinks = manualLinks.filter((l) => !(l.from === noteId && l.to === targetId));
    return linksOf(noteId);
  });

  const retag = (tag: string, rewrite: (tags: string[]) => string[]) => {
    notes = notes.map((n) => (n.tags.includes(tag) ? { ...n, tags: rewrite(n.tags) } : n));
  };
  const tags = {
    list: vi.fn(async () => {
      const counts = new Map<string, number>();
      for (const n of notes) for (const t of n.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
      return listed(
        [...counts]
          .map(([tag, count]) => ({ tag, count }))
          .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag)),
      );
    }),
    rename: vi.fn(async (tag: string, name: string) => {
      retag(tag, (current) => [...new Set(current.map((t) => (t === tag ? name : t)))]);
      return { tag: name, count: notes.filter((n) => n.tags.includes(name)).length };
    }),
    remove: vi.fn(async (tag: string) => {
      retag(tag, (current) => current.filter((t) => t !== tag));
    }),
  };

  const streams: PlayedStream[] = [];
  const playStream = (
    body: unknown,
    { signal, onEvent }: { signal?: AbortSignal; onEvent: (event: AiStreamEvent) => void },
  ) =>
    new Promise<void>((resolve, reject) => {
      const deliver = (events: AiStreamEvent[]) =>
        act(() => {
          for (const event of events) if (!signal?.aborted) onEvent(event);
        });
      const stream: PlayedStream = {
        body,
        signal,
        send: (...events) => deliver(events),
        tokens: (...texts) => deliver(texts.map((text) => ({ type: 'token', text }))),
        finish: (done = {}) =>
          act(async () => {
            if (signal?.aborted) return;
            onEvent({ type: 'done', method: 'model', ...done });
            resolve();
          }),
        fail: (error) =>
          act(async () => {
            reject(error);
          }),
      };
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      streams.push(stream);
    });

  let aiSettings: AiSettings = { ...localAiSettings(), ...options.aiSettings };
  const hitOf = (note: Note, sources: AiHit['sources']): AiHit => ({
    note: {
      id: note.id,
      title: note.title,
      snippet: note.note.slice(0, 120),
      tags: note.tags,
      updatedAt: note.updatedAt,
    },
    score: 1,
    nearest: false,
    sources,
  });
  const ai = {
    settings: vi.fn(async () => aiSettings),
    updateSettings: vi.fn(async ({ excludedTags }: { excludedTags: string[] }) => {
      aiSettings = { ...aiSettings, excludedTags: [...new Set(excludedTags)] };
      return aiSettings;
    }),
    assist: vi.fn(playStream),
    askAi: vi.fn(playStream),
    summarizeNote: vi.fn(async (noteId: string): Promise<NoteSummary> => {
      const note = find(noteId);
      if (!note) throw notFound();
      return {
        noteId,
        summary: note.note.split(/(?<=[.!?])\s/)[0] ?? '',
        method: 'extractive',
        cached: false,
        generatedAt: new Date(clock).toISOString(),
      };
    }),
    summarizePeriod: vi.fn(
      async (kind: SummaryPeriodKind, { date = '2026-01-01' }: PeriodSummaryQuery = {}) => {
        const { from, to } = periodOf(kind, date);
        const within = notes.filter((n) => {
          const at = Date.parse(n.createdAt);
          return at >= from && at < to;
        });
        const summary: PeriodSummary = {
          period: { kind, from: new Date(from).toISOString(), to: new Date(to).toISOString() },
          summary: within.map((n) => n.note).join(' '),
          keywords: [...new Set(within.flatMap((n) => n.tags))],
          notes: within.map((n) => ({ id: n.id, title: n.title })),
          totalNotes: within.length,
          method: 'extractive',
          cached: false,
          generatedAt: new Date(clock).toISOString(),
        };
        return summary;
      },
    ),
    search: vi.fn(async ({ query }: { query: string }, _options: { signal?: AbortSignal } = {}) =>
      listed(
        notes
          .filter((n) => `${n.title} ${n.note}`.toLowerCase().includes(query.toLowerCase()))
          .map((n) => hitOf(n, ['fulltext', 'semantic'])),
      ),
    ),
    related: vi.fn(async ({ noteId }: { noteId: string }) => {
      const note = find(noteId);
      if (!note) throw notFound();
      return listed(
        notes
          .filter((n) => n.id !== noteId && n.tags.some((tag) => note.tags.includes(tag)))
          .map((n) => hitOf(n, ['semantic'])),
      );
    }),
  };

  let chats = [...(options.chats ?? [])];
  const knowledge = {
    answer: vi.fn(playStream),
    chats: vi.fn(async () =>
      listed(
        [...chats]
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
          .map(({ messages: _messages, ...chat }) => chat),
      ),
    ),
    chat: vi.fn(async (chatId: string) => {
      const chat = chats.find((c) => c.id === chatId);
      if (!chat) throw new AppError('NOT_FOUND', 'There is no such conversation');
      return chat;
    }),
    removeChat: vi.fn(async (chatId: string) => {
      chats = chats.filter((c) => c.id !== chatId);
    }),
    generate: vi.fn(
      async ({
        chatId,
        messageId,
      }: {
        chatId: string;
        messageId?: string;
      }): Promise<GeneratedNote> => {
        const chat = chats.find((c) => c.id === chatId);
        const answers = chat?.messages.filter((m) => m.role === 'assistant') ?? [];
        const message = answers.find((m) => m.id === messageId) ?? answers.at(-1);
        if (!chat || !message) throw new AppError('NOT_FOUND', 'There is no such answer');
        return {
          title: chat.title,
          note: message.content,
          tags: ['knowledge'],
          sources: message.citations,
          method: message.method ?? 'extractive',
        };
      },
    ),
  };

  /** A note made from a capture, as the server answers one: processing, queued. */
  const captured = (
    kind: NoteCapture['kind'],
    origin: NoteCapture['origin'],
    extra: Partial<NoteCapture> & { fileName?: string; fileType?: string; bytes?: number } = {},
  ): Note => {
    const { fileName, fileType, bytes, ...fields } = extra;
    const note = makeNote({ title: '', note: '' });
    const capture: NoteCapture = {
      kind,
      origin,
      status: 'processing',
      step: 'queued',
      attempt: 1,
      startedAt: new Date(clock).toISOString(),
      ...(fileName
        ? {
            file: {
              url: `/api/notes/${note.id}/files/AAAAAAAAAAAAAAAAAAAAAA.${fileName.split('.').pop()}`,
              name: fileName,
              type: fileType ?? 'application/octet-stream',
              bytes: bytes ?? 0,
            },
          }
        : {}),
      ...fields,
    };
    const made = { ...note, capture };
    notes.unshift(made);
    return made;
  };
  const capture = {
    image: vi.fn(async (_image: Blob, _fileName = 'image') => captured('image', 'upload')),
    audio: vi.fn(async (audio: Blob, fileName: string, origin: 'recording' | 'upload') =>
      captured('audio', origin, { fileName, fileType: audio.type, bytes: audio.size }),
    ),
    audioUrl: vi.fn(async (audioUrl: string) => captured('audio', 'url', { url: audioUrl })),
    link: vi.fn(async (url: string) => captured('link', 'url', { url })),
    pdf: vi.fn(async (pdf: Blob, fileName = 'document.pdf') =>
      captured('pdf', 'upload', { fileName, fileType: 'application/pdf', bytes: pdf.size }),
    ),
    retry: vi.fn(async (noteId: string) => {
      const note = find(noteId);
      if (!note) throw notFound();
      const current = note.capture;
      if (!current || (current.status !== 'failed' && current.status !== 'waiting')) {
        throw new AppError('CONFLICT', 'The capture is neither failed nor waiting');
      }
      const { error: _error, ...rest } = current;
      return change(noteId, {
        capture: { ...rest, status: 'processing', step: 'queued', attempt: current.attempt + 1 },
      });
    }),
    dismissTags: vi.fn(async (noteId: string) => {
      const note = find(noteId);
      if (!note?.capture) throw notFound();
      const { suggestedTags: _left, ...rest } = note.capture;
      return change(noteId, { capture: rest });
    }),
    file: vi.fn(async (url: string) => new Blob([url], { type: 'audio/webm' })),
  };

  const fake = {
    ai,
    knowledge,
    tags,
    capture,
    notes: {
      list,
      create,
      get,
      update,
      pin: vi.fn(async (id: string) => change(id, { isPinned: true })),
      unpin: vi.fn(async (id: string) => change(id, { isPinned: false })),
      share: vi.fn(async (id: string) => {
        const publicId = 'AAAAAAAAAAAAAAAAAAAAAA';
        change(id, { publicId });
        return { publicId, url: `http://localhost/notes/s/${publicId}` };
      }),
      unshare: vi.fn(async (id: string) => change(id, { publicId: null })),
      remove: vi.fn(async (id: string) => {
        notes = notes.filter((n) => n.id !== id);
      }),
    },
    links: {
      get: vi.fn(async (noteId: string) => linksOf(noteId)),
      add: addLink,
      remove: removeLink,
    },
  } satisfies Fake;
  // The one cast: calls the module never makes in these tests are left out.
  const api = fake as unknown as NotesApi;
  return {
    api,
    list,
    create,
    get,
    update,
    addLink,
    removeLink,
    tags,
    ai,
    knowledge,
    capture,
    /** The streamed answers asked for so far, oldest first. */
    streams,
    lastStream: () => {
      const stream = streams.at(-1);
      if (!stream) throw new Error('No answer was asked for');
      return stream;
    },
    /** A conversation the service stored meanwhile (say, the one an answer just started). */
    addChat: (chat: Chat) => {
      chats = [...chats.filter((c) => c.id !== chat.id), chat];
    },
    stored: (id: string) => find(id),
    /** Another tab or device saves the note. */
    changeElsewhere: (id: string, fields: Partial<Note>) => {
      clock += 60_000;
      return change(id, { ...fields, updatedAt: new Date(clock).toISOString() });
    },
  };
};

/** Where the router is, for assertions on the address. */
function Address() {
  const { pathname, search } = useLocation();
  return <span hidden data-testid="address">{`${pathname}${search}`}</span>;
}

const plainEditor = (props: MarkdownEditorProps) => <TextareaEditor {...props} />;

/**
 * The notes module at `path`, as the shell mounts it (with the shell's real confirm popup and
 * image preview), with the plain text area in place of CodeMirror (which needs a layout engine).
 * `services` replace some of the shell's (its account, say).
 */
export const renderNotes = (
  api: NotesApi,
  path = '/',
  i18n = createNotesTestI18n(),
  services: Partial<ShellServices> = {},
) => {
  const hosted = createHostedTestShell(i18n);
  const { Hosts } = hosted;
  const shell = { ...hosted.shell, ...services };
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <MarkdownEditorContext.Provider value={plainEditor}>
        <NotesApp api={api} shell={shell} />
      </MarkdownEditorContext.Provider>
      <Hosts />
      <Address />
    </MemoryRouter>,
  );
  return { ...view, shell };
};

export const address = (container: Pick<Document, 'querySelector'> = document) =>
  container.querySelector('[data-testid="address"]')?.textContent ?? '';
