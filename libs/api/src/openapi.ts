import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import type { oas31 } from 'zod-openapi';
import {
  AiHitList,
  AiSearchQuery,
  AiSettings,
  AiSettingsUpdate,
  AiStreamEvent,
  Chat,
  ChatAnswerRequest,
  ChatIdParams,
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
  SummarizeNote,
  SummaryPeriodKind,
  WriterAskAi,
  WriterAssist,
} from './ai.js';
import { errorCodes } from './errors.js';
import {
  NoteImageParams,
  NoteImageRemove,
  NoteImageUploaded,
  NoteImageUploadForm,
  PublicNoteImageParams,
} from './images.js';
import { NoteGraph, NoteGraphQuery, NoteLinkAction, NoteLinks } from './links.js';
import {
  Note,
  NoteAction,
  NoteBatchQuery,
  NoteCreate,
  NoteIdParams,
  NoteItems,
  NoteListQuery,
  NotePinnedQuery,
  NoteTimeRangeQuery,
  NoteUpdate,
  PublicIdParams,
  PublicNote,
  ShareResult,
  TagCount,
  TagList,
  TagParams,
  TagRename,
} from './notes.js';
import { NoteUpdateForm } from './note-form.js';
import {
  ReviewDueList,
  ReviewDueQuery,
  ReviewMark,
  ReviewSchedule,
  ReviewUserParams,
} from './review.js';
import { SearchPage } from './search.js';
import { Todo, TodoList, TodoParams, TodoRecentQuery, TodoSet } from './todos.js';
import { User } from './users.js';

const ErrorResponse = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });

const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: describeStatus(status), ...json(ErrorResponse) },
    ]),
  );

const describeStatus = (status: number) =>
  ({
    400: 'The input is invalid (code VALIDATION_FAILED or BAD_REQUEST)',
    401: 'No valid access token (code UNAUTHENTICATED)',
    403: 'Not allowed, e.g. over the monthly quota (code NOTES_LEFT_NOT_ENOUGH)',
    404: 'No such object for this user (code NOT_FOUND)',
    409: 'Changed meanwhile, so nothing was saved (code CONFLICT)',
    429: 'Too many at once: wait for one to finish (code RATE_LIMITED)',
    501: 'The feature needs a language model and none is configured (code AI_MODEL_REQUIRED)',
    502: 'The AI provider failed after retries (code AI_PROVIDER_FAILED)',
  })[status] ?? `Error ${status}`;

/** A streamed answer: server-sent events, each `data` one AiStreamEvent as JSON. */
const eventStream = (description: string) => ({
  '200': {
    description: `${description}; server-sent events (event = type), ending with done or error`,
    content: { 'text/event-stream': { schema: AiStreamEvent } },
  },
});

/** Refused for a note with a tag excluded from AI (AI_EXCLUDED), or one not found. */
const aiNoteErrors = () => ({
  ...errors(403, 404),
  '403': {
    description: 'The note has a tag excluded from AI (code AI_EXCLUDED)',
    ...json(ErrorResponse),
  },
});

const op = (operation: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: [{ keycloak: [] }],
  ...operation,
  responses: { ...operation.responses, ...errors(400, 401) },
});

/** The OpenAPI 3.1 document of the public API, served by the gateway. */
export const openApiDocument = (serverUrl: string): oas31.OpenAPIObject =>
  createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Noted API',
      version: '1.0.0',
      description:
        'The public API of Noted. Every call but the public ones needs a Keycloak access token ' +
        '(`Authorization: Bearer ...`). Errors answer `{ "error": { "code", "message" } }`.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        keycloak: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    paths: {
      '/api/note/create/direct': {
        post: op({
          operationId: 'noteCreateDirect',
          summary: 'Create a note from typed text',
          tags: ['notes'],
          requestBody: json(NoteCreate),
          responses: { '201': { description: 'The new note', ...json(Note) }, ...errors(403) },
        }),
      },
      '/api/notes': {
        get: op({
          operationId: 'noteList',
          summary: "The user's notes, newest first; with `search`, the best matches first",
          tags: ['notes'],
          requestParams: { query: NoteListQuery },
          responses: {
            '200': {
              description: 'One page of notes; with `search`, each carries `highlights`',
              ...json(SearchPage),
            },
          },
        }),
      },
      '/api/notes/{id}': {
        get: op({
          operationId: 'noteGet',
          summary: 'One note',
          tags: ['notes'],
          requestParams: { path: NoteIdParams },
          responses: { '200': { description: 'The note', ...json(Note) }, ...errors(404) },
        }),
        put: op({
          operationId: 'noteUpdate',
          summary: 'Change the title, body or tags of a note, or drop images (JSON or multipart)',
          tags: ['notes'],
          requestParams: { path: NoteIdParams },
          requestBody: {
            content: {
              'application/json': { schema: NoteUpdate },
              'multipart/form-data': { schema: NoteUpdateForm },
            },
          },
          responses: {
            '200': { description: 'The changed note', ...json(Note) },
            '409': {
              description:
                'The note changed since baseUpdatedAt, so nothing was saved (code CONFLICT)',
              ...json(ErrorResponse),
            },
            ...errors(404, 413, 415),
          },
        }),
        delete: op({
          operationId: 'noteDelete',
          summary: 'Delete a note',
          tags: ['notes'],
          requestParams: { path: NoteIdParams },
          responses: { '204': { description: 'Deleted' }, ...errors(404) },
        }),
      },
      '/api/notes/pinned': {
        get: op({
          operationId: 'notePinnedList',
          summary: "The user's pinned notes, newest first, a page (at most 100) at a time",
          tags: ['notes'],
          requestParams: { query: NotePinnedQuery },
          responses: {
            '200': {
              description: 'Pinned notes; total is how many are pinned',
              ...json(NoteItems),
            },
          },
        }),
      },
      '/api/notes/timerange': {
        get: op({
          operationId: 'noteTimeRange',
          summary: 'Notes created or updated in [from, to), newest change first (at most 1000)',
          tags: ['notes'],
          requestParams: { query: NoteTimeRangeQuery },
          responses: { '200': { description: 'The notes', ...json(NoteItems) } },
        }),
      },
      '/api/notes/batch': {
        get: op({
          operationId: 'noteBatch',
          summary: "Several of the user's notes by id (comma list, at most 100), in that order",
          tags: ['notes'],
          requestParams: { query: NoteBatchQuery },
          responses: { '200': { description: 'The notes found', ...json(NoteItems) } },
        }),
      },
      ...Object.fromEntries(
        (
          [
            ['pin', 'Pin a note', Note],
            ['unpin', 'Unpin a note', Note],
            ['share', 'Share a note: anyone with the link can read it', ShareResult],
            ['unshare', 'Stop sharing a note; the old link stops working at once', Note],
          ] as const
        ).map(([action, summary, result]) => [
          `/api/note/${action}`,
          {
            post: op({
              operationId: `note${action[0]?.toUpperCase()}${action.slice(1)}`,
              summary,
              tags: ['notes'],
              requestBody: json(NoteAction),
              responses: { '200': { description: 'Done', ...json(result) }, ...errors(404) },
            }),
          },
        ]),
      ),
      '/public/note/{publicId}': {
        get: {
          operationId: 'notePublic',
          summary: 'A shared note, without an account',
          tags: ['public'],
          requestParams: { path: PublicIdParams },
          responses: {
            '200': { description: 'The shared note', ...json(PublicNote) },
            ...errors(400, 404),
          },
        },
      },
      '/api/tags': {
        get: op({
          operationId: 'tagList',
          summary:
            "The user's tags with how many notes carry each, most used first (at most 1000; " +
            'total is how many tags there are)',
          tags: ['tags'],
          responses: { '200': { description: 'Tags', ...json(TagList) } },
        }),
      },
      '/api/tags/{tag}': {
        put: op({
          operationId: 'tagRename',
          summary: 'Rename a tag on every note (merging with an existing tag of that name)',
          tags: ['tags'],
          requestParams: { path: TagParams },
          requestBody: json(TagRename),
          responses: { '200': { description: 'The tag now', ...json(TagCount) }, ...errors(404) },
        }),
        delete: op({
          operationId: 'tagDelete',
          summary: 'Remove a tag from every note',
          tags: ['tags'],
          requestParams: { path: TagParams },
          responses: { '204': { description: 'Removed' }, ...errors(404) },
        }),
      },
      '/api/note/addlink': {
        post: op({
          operationId: 'noteAddLink',
          summary: 'Link one note to another of the same user (adding it twice changes nothing)',
          tags: ['links'],
          requestBody: json(NoteLinkAction),
          responses: {
            '200': { description: 'The links of noteId', ...json(NoteLinks) },
            ...errors(404),
          },
        }),
      },
      '/api/note/removelink': {
        post: op({
          operationId: 'noteRemoveLink',
          summary: 'Remove a manual link; a [[wiki link]] stays while the body names the target',
          tags: ['links'],
          requestBody: json(NoteLinkAction),
          responses: {
            '200': { description: 'The links of noteId', ...json(NoteLinks) },
            ...errors(404),
          },
        }),
      },
      '/api/notes/{id}/links': {
        get: op({
          operationId: 'noteLinks',
          summary: 'The notes a note links to and the notes that link to it',
          tags: ['links'],
          requestParams: { path: NoteIdParams },
          responses: { '200': { description: 'The links', ...json(NoteLinks) }, ...errors(404) },
        }),
      },
      '/api/notes/graph': {
        get: op({
          operationId: 'noteGraph',
          summary: 'The notes of the user and the links between them, for the mind map',
          tags: ['links'],
          requestParams: { query: NoteGraphQuery },
          responses: { '200': { description: 'The graph', ...json(NoteGraph) } },
        }),
      },
      '/api/todos/recent': {
        get: op({
          operationId: 'todoRecent',
          summary:
            'Checkboxes (GFM task list items) of the most recently updated notes: newest note ' +
            'first, document order within a note',
          tags: ['todos'],
          requestParams: { query: TodoRecentQuery },
          responses: { '200': { description: 'The todos', ...json(TodoList) } },
        }),
      },
      '/api/notes/{id}/todos/{index}': {
        put: op({
          operationId: 'todoSet',
          summary: 'Check or uncheck the nth checkbox of a note (only its [ ] / [x] changes)',
          tags: ['todos'],
          requestParams: { path: TodoParams },
          requestBody: json(TodoSet),
          responses: {
            '200': { description: 'The todo now', ...json(Todo) },
            ...errors(404, 409),
          },
        }),
      },
      '/api/notes/review': {
        get: op({
          operationId: 'reviewDue',
          summary:
            'Notes due for spaced-repetition review (SM-2), most overdue first; notes without ' +
            'a schedule get one, due a day after they were created',
          tags: ['review'],
          requestParams: { query: ReviewDueQuery },
          responses: { '200': { description: 'The due notes', ...json(ReviewDueList) } },
        }),
      },
      '/api/notes-review/{userId}': {
        get: op({
          operationId: 'reviewDueOf',
          summary: 'The same due notes by user id; any id but the caller’s own answers 404',
          tags: ['review'],
          requestParams: { path: ReviewUserParams, query: ReviewDueQuery },
          responses: {
            '200': { description: 'The due notes', ...json(ReviewDueList) },
            ...errors(404),
          },
        }),
      },
      '/api/note/review': {
        post: op({
          operationId: 'reviewMark',
          summary: 'Record a review (remembered / forgot, or an SM-2 grade 0-5) and reschedule',
          tags: ['review'],
          requestBody: json(ReviewMark),
          responses: {
            '200': { description: 'The new schedule', ...json(ReviewSchedule) },
            ...errors(404),
          },
        }),
      },
      '/api/notes/{id}/images': {
        post: op({
          operationId: 'noteImageUpload',
          summary:
            'Add an image to a note: recognised by content, re-encoded as WebP, at most 1920 px ' +
            'on the longer side',
          tags: ['images'],
          requestParams: { path: NoteIdParams },
          requestBody: { content: { 'multipart/form-data': { schema: NoteImageUploadForm } } },
          responses: {
            '201': { description: 'The stored image and the note', ...json(NoteImageUploaded) },
            '400': {
              description:
                'NOT_AN_IMAGE (the content is no JPEG, PNG, WebP, GIF or AVIF), ' +
                'VALIDATION_FAILED (over 40 megapixels, or the note is full) or BAD_REQUEST',
              ...json(ErrorResponse),
            },
            ...errors(404, 413, 415),
          },
        }),
        delete: op({
          operationId: 'noteImageRemove',
          summary: 'Remove an image from a note and from storage',
          tags: ['images'],
          requestParams: { path: NoteIdParams },
          requestBody: json(NoteImageRemove),
          responses: { '200': { description: 'The changed note', ...json(Note) }, ...errors(404) },
        }),
      },
      '/api/notes/{id}/images/{name}': {
        get: op({
          operationId: 'noteImageGet',
          summary: "An image of one of the user's notes",
          tags: ['images'],
          requestParams: { path: NoteImageParams },
          responses: {
            '200': {
              description: 'The image',
              content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } },
            },
            ...errors(404),
          },
        }),
      },
      '/public/note/{publicId}/images/{name}': {
        get: {
          operationId: 'notePublicImage',
          summary: 'An image of a shared note, without an account, while it is shared',
          tags: ['public'],
          requestParams: { path: PublicNoteImageParams },
          responses: {
            '200': {
              description: 'The image',
              content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } },
            },
            ...errors(400, 404),
          },
        },
      },
      '/ai/writer/assist': {
        post: op({
          operationId: 'aiWriterAssist',
          summary:
            'Continue, rewrite, shorten, expand, fix or translate the selected text (or the note)',
          tags: ['ai'],
          requestBody: json(WriterAssist),
          responses: {
            ...eventStream('The new text, token by token'),
            ...aiNoteErrors(),
            ...errors(429, 501),
          },
        }),
      },
      '/ai/writer/askai': {
        post: op({
          operationId: 'aiWriterAskAi',
          summary: 'A free question about the note being written',
          tags: ['ai'],
          requestBody: json(WriterAskAi),
          responses: {
            ...eventStream('The answer, token by token'),
            ...aiNoteErrors(),
            ...errors(429, 501),
          },
        }),
      },
      '/ai/note/assist/summarize/note': {
        post: op({
          operationId: 'aiSummarizeNote',
          summary: "A note's summary (by the model, or its central sentences without one); cached",
          tags: ['ai'],
          requestBody: json(SummarizeNote),
          responses: {
            '200': { description: 'The summary', ...json(NoteSummary) },
            ...aiNoteErrors(),
          },
        }),
      },
      '/ai/note/assist/summarize/{kind}': {
        get: op({
          operationId: 'aiSummarizePeriod',
          summary:
            'What the user wrote in a day, week, month or year; cached until its notes change',
          tags: ['ai'],
          requestParams: {
            path: z.object({ kind: SummaryPeriodKind }),
            query: PeriodSummaryQuery,
          },
          responses: { '200': { description: 'The summary', ...json(PeriodSummary) } },
        }),
      },
      '/ai/note/assist/search': {
        get: op({
          operationId: 'aiSearch',
          summary: 'Search by words and by meaning, fused',
          tags: ['ai'],
          requestParams: { query: AiSearchQuery },
          responses: { '200': { description: 'The notes found, best first', ...json(AiHitList) } },
        }),
      },
      '/ai/note/assist/related': {
        get: op({
          operationId: 'aiRelated',
          summary: 'The notes most related to a note',
          tags: ['ai'],
          requestParams: { query: RelatedQuery },
          responses: {
            '200': { description: 'Related notes, best first', ...json(AiHitList) },
            ...aiNoteErrors(),
          },
        }),
      },
      '/ai/settings': {
        get: op({
          operationId: 'aiSettingsGet',
          summary:
            'The AI provider and models in use, how each feature works, usage, excluded tags',
          tags: ['ai'],
          responses: { '200': { description: 'AI settings', ...json(AiSettings) } },
        }),
        put: op({
          operationId: 'aiSettingsUpdate',
          summary: 'Set the tags whose notes are never sent to an AI provider',
          tags: ['ai'],
          requestBody: json(AiSettingsUpdate),
          responses: { '200': { description: 'AI settings', ...json(AiSettings) } },
        }),
      },
      '/api/knowledge/chat/answer': {
        post: op({
          operationId: 'knowledgeChatAnswer',
          summary: "Answer a question from the user's notes, citing them; keeps the conversation",
          tags: ['knowledge'],
          requestBody: json(ChatAnswerRequest),
          responses: {
            ...eventStream('chat, citations, the answer token by token, then done'),
            ...errors(404, 429),
          },
        }),
      },
      '/api/knowledge/chat/history': {
        get: op({
          operationId: 'knowledgeChatList',
          summary: 'Conversations, most recent first',
          tags: ['knowledge'],
          requestParams: { query: ChatListQuery },
          responses: { '200': { description: 'Conversations', ...json(ChatList) } },
        }),
      },
      '/api/knowledge/chat/history/{chatId}': {
        get: op({
          operationId: 'knowledgeChatGet',
          summary: 'One conversation with its messages',
          tags: ['knowledge'],
          requestParams: { path: ChatIdParams },
          responses: { '200': { description: 'The conversation', ...json(Chat) }, ...errors(404) },
        }),
        delete: op({
          operationId: 'knowledgeChatDelete',
          summary: 'Delete a conversation',
          tags: ['knowledge'],
          requestParams: { path: ChatIdParams },
          responses: { '204': { description: 'Deleted' }, ...errors(404) },
        }),
      },
      '/api/knowledge/generate': {
        post: op({
          operationId: 'knowledgeGenerate',
          summary: 'Draft a note from an answer of a conversation (nothing is saved)',
          tags: ['knowledge'],
          requestBody: json(KnowledgeGenerate),
          responses: {
            '200': { description: 'The draft', ...json(GeneratedNote) },
            ...errors(404),
          },
        }),
      },
      '/api/note/generate/bycontent': {
        post: op({
          operationId: 'noteGenerateByContent',
          summary: 'Draft a note (title, body, tags) from raw content',
          tags: ['ai'],
          requestBody: json(GenerateByContent),
          responses: { '200': { description: 'The draft', ...json(GeneratedNote) } },
        }),
      },
      '/api/note/generate/bytranscription': {
        post: op({
          operationId: 'noteGenerateByTranscription',
          summary: 'Draft a note from a transcription (given, or the body of a note)',
          tags: ['ai'],
          requestBody: json(GenerateByTranscription),
          responses: {
            '200': { description: 'The draft', ...json(GeneratedNote) },
            ...aiNoteErrors(),
          },
        }),
      },
      '/api/note/images/analyze': {
        post: op({
          operationId: 'noteImagesAnalyze',
          summary: "Describe images of the user's notes with the vision model",
          tags: ['ai'],
          requestBody: json(ImageAnalyze),
          responses: {
            '200': { description: 'One description per image', ...json(ImageAnalysis) },
            ...aiNoteErrors(),
            ...errors(501),
          },
        }),
      },
      '/user': {
        get: op({
          operationId: 'userMe',
          summary: 'The signed-in user, created on the first authenticated request',
          tags: ['users'],
          responses: { '200': { description: 'The user', ...json(User) } },
        }),
      },
      '/user/findBySub/{sub}': {
        get: op({
          operationId: 'userFindBySub',
          summary: 'The signed-in user, by their identity-provider subject',
          tags: ['users'],
          requestParams: { path: z.object({ sub: z.string() }) },
          responses: { '200': { description: 'The user', ...json(User) }, ...errors(404) },
        }),
      },
      '/user-by-sub/{sub}': {
        get: op({
          operationId: 'userBySub',
          summary: 'The same as /user/findBySub/{sub}, at the path older clients use',
          tags: ['users'],
          requestParams: { path: z.object({ sub: z.string() }) },
          responses: { '200': { description: 'The user', ...json(User) }, ...errors(404) },
        }),
      },
    },
  });
