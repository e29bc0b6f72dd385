import * as z from 'zod';
import { created, noContent, ok, routesFor } from './contract.js';
import { NoteUpdateForm } from './note-form.js';
import { NOTE_IMAGE_PATH, WHITE_SPACE, requireOneOf } from './rules.js';
import { TAG_MAX_LENGTH } from './tags.js';

export const Tag = z
  .string()
  .trim()
  .min(1, 'A tag cannot be empty')
  .max(TAG_MAX_LENGTH, `A tag is at most ${TAG_MAX_LENGTH} characters`)
  .regex(new RegExp(`^[^${WHITE_SPACE}#,]+$`), 'A tag has no spaces, commas or #');

/**
 * An instant as ISO 8601 with any offset the format allows (up to ±23:59), read as the moment
 * it names and passed on as UTC: a store never sees an offset it does not take (Postgres stops
 * at ±15:59).
 */
export const Instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString());

/**
 * Characters a note body may hold. Limits on text are in characters (UTF-16 code units, as
 * JSON and JavaScript count them); the limit on a request is in bytes and follows from them.
 */
export const NOTE_BODY_MAX_CHARS = 1_000_000;

/**
 * The largest JSON request body, in bytes. One character takes at most 6 bytes in JSON (a
 * `\uXXXX` escape; 3 in plain UTF-8 for Chinese), so a note at its 1,000,000 characters always
 * fits, however it is written, with room for its title and tags: no text within its documented
 * length is refused for its size. Larger bodies answer 413 PAYLOAD_TOO_LARGE.
 */
export const JSON_BODY_MAX_BYTES = 6 * NOTE_BODY_MAX_CHARS + 1024 * 1024;

export const CaptureKind = z.enum(['image', 'audio', 'link', 'pdf']);
export type CaptureKind = z.infer<typeof CaptureKind>;
export const CaptureStatus = z.enum(['processing', 'ready', 'failed', 'waiting']).meta({
  description:
    'processing: being read; ready: filled in; failed: see error (retry possible); waiting: ' +
    'needs a model that is not configured (audio without a transcription model), read later',
});
export type CaptureStatus = z.infer<typeof CaptureStatus>;
export const CaptureStep = z.enum(['queued', 'fetching', 'reading', 'transcribing', 'writing']);
export type CaptureStep = z.infer<typeof CaptureStep>;

/** How a note made from an image, audio, a link or a PDF came to be, and how far it is. */
export const NoteCapture = z
  .object({
    kind: CaptureKind,
    origin: z.enum(['upload', 'recording', 'url']),
    status: CaptureStatus,
    step: CaptureStep.nullable().meta({ description: 'While processing: what is being done' }),
    attempt: z.number().int(),
    url: z.string().optional().meta({ description: 'The address it was fetched from' }),
    siteName: z.string().optional(),
    file: z
      .object({
        url: z.string().meta({ description: '/api/notes/{id}/files/{name}, the owner only' }),
        name: z.string().meta({ description: 'The name it came with' }),
        type: z.string(),
        bytes: z.number().int(),
        durationSeconds: z.number().optional(),
      })
      .optional()
      .meta({ description: 'The audio or PDF kept with the note (an image is in images)' }),
    method: z.string().optional().meta({
      description: 'How the text was read: ocr, vision, transcription, pdf, article',
    }),
    model: z.string().optional(),
    pages: z.number().int().optional(),
    truncated: z.boolean().optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    suggestedTags: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'Tags the reading suggests, at most three, none the note has: the user takes them by ' +
          'adding them to the note, or leaves them (POST /api/note/capture/tags/dismiss)',
      }),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().optional(),
  })
  .meta({ id: 'NoteCapture' });
export type NoteCapture = z.infer<typeof NoteCapture>;

export const Note = z
  .object({
    id: z.uuid(),
    title: z.string(),
    note: z.string().meta({ description: 'The note body, in Markdown' }),
    tags: z.array(z.string()),
    images: z.array(z.string()),
    isPinned: z.boolean(),
    publicId: z
      .string()
      .nullable()
      .meta({ description: 'Set while the note is shared: its page is /notes/s/{publicId}' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    capture: NoteCapture.optional().meta({
      description: 'Present on notes made from an image, audio, a link or a PDF',
    }),
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof Note>;

/** The earliest year a note can be written in (as the date names it, in its own offset). */
const FROM_1970 = /^(19[7-9][0-9]|[2-9][0-9]{3})-/;

/**
 * A note needs a title or a body (white space is neither), stated as anyOf so the document
 * says it. A createdAt later than a few minutes from now depends on the clock, which no schema
 * states: it is refused by the use-case with 422 UNPROCESSABLE.
 */
export const NoteCreate = requireOneOf(
  z.object({
    id: z
      .uuid({ message: 'Not a note id' })
      .optional()
      .meta({
        description:
          'An id chosen by the client (a UUID). Sending the same creation again answers the ' +
          'note already made instead of making another.',
      }),
    title: z.string().max(500).trim().default(''),
    note: z.string().max(NOTE_BODY_MAX_CHARS).default(''),
    tags: z
      .array(Tag)
      .max(50)
      .default([])
      .transform((tags) => [...new Set(tags)]),
    createdAt: z.iso
      .datetime({ offset: true, message: 'Not a date and time (ISO 8601)' })
      .regex(FROM_1970, 'A note cannot be written before 1970')
      .optional()
      .meta({
        description:
          'When the note was first written, if elsewhere (an import keeps the date a file ' +
          'gives); now when left out. From 1970; later than five minutes from now answers 422 ' +
          'UNPROCESSABLE. Its month is not the quota month: creating it takes one note of ' +
          'this month',
      }),
  }),
  { title: 'notBlank', note: 'notBlank' },
  'A note needs a title or a body',
  { id: 'NoteCreate', description: 'A title or a body (not only white space), or both' },
);
export type NoteCreate = z.input<typeof NoteCreate>;

export const NoteUpdate = requireOneOf(
  z.object({
    title: z.string().max(500).trim().optional(),
    note: z.string().max(NOTE_BODY_MAX_CHARS).optional(),
    tags: z
      .array(Tag)
      .max(50)
      .transform((tags) => [...new Set(tags)])
      .optional(),
    images: z
      .array(z.string().regex(NOTE_IMAGE_PATH, 'Not the address of an image of a note'))
      .max(100)
      .transform((images) => [...new Set(images)])
      .optional()
      .meta({
        description:
          'The image URLs to keep, of those the note has; one it does not have answers 422 ' +
          'UNPROCESSABLE (new images come through the upload route)',
      }),
    baseUpdatedAt: z.iso
      .datetime()
      .optional()
      .meta({
        description:
          'The updatedAt of the version the change was made on; when the note has changed ' +
          'since, nothing is saved and the answer is 409 CONFLICT',
      }),
  }),
  { title: 'present', note: 'present', tags: 'present', images: 'present' },
  'Give at least one of title, note, tags or images',
  { id: 'NoteUpdate', description: 'At least one of title, note, tags or images' },
);
export type NoteUpdate = z.input<typeof NoteUpdate>;

const queryFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

export const NoteListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    tag: Tag.optional().meta({ description: 'Only notes with this tag' }),
    sharedOnly: queryFlag.default(false).meta({ description: 'Only shared notes' }),
    pinned: queryFlag
      .optional()
      .meta({ description: 'Only pinned (true) or unpinned (false) notes' }),
    pinnedFirst: queryFlag.default(false).meta({ description: 'Pinned notes before the others' }),
    from: Instant.optional().meta({ description: 'Created at or after' }),
    to: Instant.optional().meta({ description: 'Created before' }),
    search: z
      .string()
      .trim()
      .max(200, 'A search is at most 200 characters')
      .optional()
      .transform((text) => text || undefined)
      .meta({
        description:
          'Full-text search: words (the last one also as a prefix), "a phrase", or, -exclude. ' +
          'Empty means no search.',
      }),
  })
  .meta({ id: 'NoteListQuery' });
export interface NoteListQuery {
  page?: number;
  limit?: number;
  tag?: string;
  sharedOnly?: boolean;
  pinned?: boolean;
  pinnedFirst?: boolean;
  from?: string;
  to?: string;
  search?: string;
}

export const NoteIdParams = z.object({ id: z.uuid({ message: 'Not a note id' }) });

/**
 * A list: its items and where they stand among all there are. Lists that are not paged answer
 * page 1, the most they return as `limit`, and (unless they say otherwise) as many in `total`
 * as they return.
 */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });

export const page = <T extends z.ZodType>(item: T) =>
  listOf(item).extend({
    total: z.number().int().meta({
      description: 'Matching notes; with totalExact false, at least this many (counting stopped)',
    }),
    totalExact: z.boolean().meta({
      description:
        'False when there are more matches than counted: lists count up to 1,000 notes, and ' +
        'a search for a word most notes have ranks its newest 200 matches and counts no further',
    }),
  });

export const NotePage = page(Note).meta({ id: 'NotePage' });
export type NotePage = z.infer<typeof NotePage>;

export const NoteAction = z
  .object({ noteId: z.uuid({ message: 'Not a note id' }) })
  .meta({ id: 'NoteAction' });
export type NoteAction = z.infer<typeof NoteAction>;

export const ShareResult = z
  .object({
    publicId: z.string().meta({ description: '128 random bits, base64url' }),
    url: z.string().meta({ description: 'The public page of the note' }),
  })
  .meta({ id: 'ShareResult' });
export type ShareResult = z.infer<typeof ShareResult>;

export const PublicNote = z
  .object({
    title: z.string(),
    note: z.string(),
    tags: z.array(z.string()),
    images: z.array(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PublicNote' });
export type PublicNote = z.infer<typeof PublicNote>;

export const PublicIdParams = z.object({
  publicId: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Not a shared note id'),
});

export const NoteTimeRangeQuery = z
  .object({
    from: Instant,
    to: Instant.meta({ description: 'Exclusive: a range with to not after from holds no notes' }),
  })
  .meta({ id: 'NoteTimeRangeQuery' });

/** Ids one `GET /api/notes/batch` may ask for. */
export const NOTE_BATCH_MAX = 100;

const uuid =
  '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}';
/** Note ids separated by commas, at most NOTE_BATCH_MAX of them (repeats count once). */
const noteIdList = new RegExp(`^${uuid}(,${uuid}){0,${NOTE_BATCH_MAX - 1}}$`);

export const NoteBatchQuery = z
  .object({
    ids: z
      .string()
      .regex(noteIdList, `A comma list of at most ${NOTE_BATCH_MAX} note ids`)
      .transform((ids) => [
        ...new Set(
          ids
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(
        z
          .array(z.uuid({ message: 'Not a note id' }))
          .min(1)
          .max(NOTE_BATCH_MAX),
      ),
  })
  .meta({ id: 'NoteBatchQuery' });

export const NoteItems = listOf(Note).meta({ id: 'NoteItems' });
export type NoteItems = z.infer<typeof NoteItems>;

export const NotePinnedQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(100),
  })
  .meta({ id: 'NotePinnedQuery' });
export interface NotePinnedQuery {
  page?: number;
  limit?: number;
}

export const TagCount = z
  .object({ tag: z.string(), count: z.number().int() })
  .meta({ id: 'TagCount' });
export type TagCount = z.infer<typeof TagCount>;

export const TagList = listOf(TagCount)
  .extend({ total: z.number().int().meta({ description: 'How many tags the user has' }) })
  .meta({ id: 'TagList' });
export type TagList = z.infer<typeof TagList>;

export const TagParams = z.object({ tag: Tag });
export const TagRename = z.object({ name: Tag }).meta({ id: 'TagRename' });

export const SearchHighlights = z
  .object({
    title: z.string().optional().meta({
      description: 'The title, HTML-escaped, with each matching word in <mark></mark>',
    }),
    note: z
      .string()
      .optional()
      .meta({
        description:
          'About 200 characters of the body as a reader sees it (no Markdown), from the start of ' +
          'the sentence with the first match, HTML-escaped, with each matching word in <mark></mark>',
      }),
  })
  .meta({
    id: 'SearchHighlights',
    description:
      'Present on notes found by a full-text search; a part is left out when no word of it ' +
      'matched (tag-only matches carry none; a typo-tolerant match marks the word it stood for).',
  });
export type SearchHighlights = z.infer<typeof SearchHighlights>;

export const SearchHit = Note.extend({ highlights: SearchHighlights.optional() }).meta({
  id: 'SearchHit',
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchPage = page(SearchHit).meta({
  id: 'SearchPage',
  description:
    'Without `search`, notes newest first. With it, the best matches first (title above tags ' +
    'above body, then newest); when no word matches, the notes with the most alike words of ' +
    'the newest 2,000 notes instead (typos).',
});
export type SearchPage = z.infer<typeof SearchPage>;

const notesApi = routesFor('notes', 'notes');
const tagsApi = routesFor('notes', 'tags');

const noteAction = <A extends z.ZodType>(action: string, summary: string, answer: A) =>
  notesApi.post(`/api/note/${action}`, {
    summary,
    body: NoteAction,
    answer: ok(answer, 'Done'),
    errors: [404],
  });

/** The routes of notes. */
export const noteRoutes = {
  noteCreateDirect: notesApi.post('/api/note/create/direct', {
    summary: 'Create a note from typed text',
    body: NoteCreate,
    answer: created(Note, 'The new note, or the one already made with this id'),
    errors: [
      [403, 'Over the monthly allowance of notes (code NOTES_LEFT_NOT_ENOUGH)'],
      [409, 'The id is taken by a note that is not yours (code CONFLICT)'],
      [422, 'A createdAt after now (code UNPROCESSABLE)'],
    ],
  }),
  noteList: notesApi.get('/api/notes', {
    summary: "The user's notes, newest first; with `search`, the best matches first",
    query: NoteListQuery,
    answer: ok(SearchPage, 'One page of notes; with `search`, each carries `highlights`'),
  }),
  noteGet: notesApi.get('/api/notes/:id', {
    summary: 'One note',
    params: NoteIdParams,
    answer: ok(Note, 'The note'),
    errors: [404],
  }),
  noteUpdate: notesApi.put('/api/notes/:id', {
    summary: 'Change the title, body or tags of a note, or drop images (JSON or multipart)',
    params: NoteIdParams,
    body: NoteUpdate,
    form: NoteUpdateForm,
    answer: ok(Note, 'The changed note'),
    errors: [
      404,
      [409, 'The note changed since baseUpdatedAt, so nothing was saved (code CONFLICT)'],
      [422, 'images keeps an image the note does not have (code UNPROCESSABLE)'],
    ],
  }),
  noteDelete: notesApi.delete('/api/notes/:id', {
    summary: 'Delete a note',
    params: NoteIdParams,
    answer: noContent('Deleted'),
    errors: [404],
  }),
  notePinnedList: notesApi.get('/api/notes/pinned', {
    summary: "The user's pinned notes, newest first, a page (at most 100) at a time",
    query: NotePinnedQuery,
    answer: ok(NoteItems, 'Pinned notes; total is how many are pinned'),
  }),
  noteTimeRange: notesApi.get('/api/notes/timerange', {
    summary: 'Notes created or updated in [from, to), newest change first (at most 1000)',
    query: NoteTimeRangeQuery,
    answer: ok(NoteItems, 'The notes'),
  }),
  noteBatch: notesApi.get('/api/notes/batch', {
    summary: "Several of the user's notes by id (comma list, at most 100), in that order",
    query: NoteBatchQuery,
    answer: ok(NoteItems, 'The notes found'),
  }),
  notePin: noteAction('pin', 'Pin a note', Note),
  noteUnpin: noteAction('unpin', 'Unpin a note', Note),
  noteShare: noteAction('share', 'Share a note: anyone with the link can read it', ShareResult),
  noteUnshare: noteAction(
    'unshare',
    'Stop sharing a note; the old link stops working at once',
    Note,
  ),
  notePublic: notesApi.get('/public/note/:publicId', {
    tag: 'public',
    public: true,
    summary: 'A shared note, without an account',
    params: PublicIdParams,
    answer: ok(PublicNote, 'The shared note'),
    errors: [404],
  }),
};

/** The routes of tags. */
export const tagRoutes = {
  tagList: tagsApi.get('/api/tags', {
    summary:
      "The user's tags with how many notes carry each, most used first (at most 1000; " +
      'total is how many tags there are)',
    answer: ok(TagList, 'Tags'),
  }),
  tagRename: tagsApi.put('/api/tags/:tag', {
    summary: 'Rename a tag on every note (merging with an existing tag of that name)',
    params: TagParams,
    body: TagRename,
    answer: ok(TagCount, 'The tag now'),
    errors: [404],
  }),
  tagDelete: tagsApi.delete('/api/tags/:tag', {
    summary: 'Remove a tag from every note',
    params: TagParams,
    answer: noContent('Removed'),
    errors: [404],
  }),
};
