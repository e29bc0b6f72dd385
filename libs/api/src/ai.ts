import * as z from 'zod';
import { events, noContent, ok, routesFor } from './contract.js';
import { Tag, listOf } from './notes.js';
import { NOTE_IMAGE_PATH, WHITE_SPACE, notBlank, requireOneOf } from './rules.js';

const NoteId = z.uuid({ message: 'Not a note id' });
const ChatId = z.uuid({ message: 'Not a chat id' });

/** A note an answer rests on: enough to name it and open it. */
export const NoteRef = z
  .object({
    id: z.uuid(),
    title: z.string(),
  })
  .meta({ id: 'NoteRef', description: 'A note an answer rests on; open it at /notes/{id}' });
export type NoteRef = z.infer<typeof NoteRef>;

/**
 * How an answer was made: by the configured language model, or without one by picking the
 * note's own sentences (extractive). Nothing is ever invented without a model.
 */
export const AiMethod = z.enum(['model', 'extractive']).meta({ id: 'AiMethod' });
export type AiMethod = z.infer<typeof AiMethod>;

export const TokenUsage = z
  .object({ promptTokens: z.number().int(), completionTokens: z.number().int() })
  .meta({ id: 'TokenUsage' });
export type TokenUsage = z.infer<typeof TokenUsage>;

export const WriterAction = z
  .enum(['continue', 'rewrite', 'shorten', 'expand', 'fix_grammar', 'translate'])
  .meta({ id: 'WriterAction' });
export type WriterAction = z.infer<typeof WriterAction>;

const maxText = z.string().max(100_000, 'At most 100,000 characters');

const actionsBut = (action: WriterAction) => WriterAction.options.filter((a) => a !== action);

export const WriterAssist = requireOneOf(
  z
    .object({
      action: WriterAction,
      noteId: NoteId.optional().meta({
        description:
          'The note being written; its text is the context (and the text when none is given)',
      }),
      text: maxText.optional().meta({ description: 'The selected text to work on' }),
      language: z
        .string()
        .max(40)
        .regex(
          new RegExp(`[^${WHITE_SPACE}][\\s\\S]*[^${WHITE_SPACE}]`),
          'A language is at least two characters',
        )
        .trim()
        .optional()
        .meta({ description: 'For translate: the language to write in, e.g. "French" or "zh"' }),
    })
    .refine((body) => body.action !== 'translate' || body.language !== undefined, {
      message: 'Say which language to translate into',
      path: ['language'],
    }),
  { noteId: 'present', text: 'notBlank' },
  'Give the text to work on, or the note',
  {
    id: 'WriterAssist',
    description: 'The note or the text (not only white space); translate names its language',
    allOf: [
      {
        anyOf: [
          { properties: { action: { enum: actionsBut('translate') } } },
          { required: ['language'] },
        ],
      },
    ],
  },
);
export type WriterAssist = z.input<typeof WriterAssist>;

export const WriterAskAi = z
  .object({
    question: notBlank('Ask a question').max(4000).trim(),
    noteId: NoteId.optional(),
    text: maxText.optional().meta({ description: 'The note text as in the editor, unsaved' }),
  })
  .meta({ id: 'WriterAskAi' });
export type WriterAskAi = z.input<typeof WriterAskAi>;

/**
 * One server-sent event of a streamed answer (`text/event-stream`): the SSE `event` field is
 * `type`, `data` is this object as JSON. A stream ends with `done` or `error`.
 */
export const AiStreamEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('chat'), chatId: z.uuid() }),
    z.object({ type: z.literal('citations'), notes: z.array(NoteRef) }),
    z.object({ type: z.literal('token'), text: z.string() }),
    z.object({
      type: z.literal('done'),
      method: AiMethod,
      model: z.string().optional(),
      messageId: z.uuid().optional(),
      usage: TokenUsage.optional(),
    }),
    z.object({
      type: z.literal('error'),
      error: z.object({ code: z.string(), message: z.string() }),
    }),
  ])
  .meta({ id: 'AiStreamEvent' });
export type AiStreamEvent = z.infer<typeof AiStreamEvent>;

export const SummarizeNote = z.object({ noteId: NoteId }).meta({ id: 'SummarizeNote' });

export const NoteSummary = z
  .object({
    noteId: z.uuid(),
    summary: z.string(),
    method: AiMethod,
    model: z.string().optional(),
    cached: z.boolean(),
    generatedAt: z.iso.datetime(),
  })
  .meta({ id: 'NoteSummary' });
export type NoteSummary = z.infer<typeof NoteSummary>;

export const SummaryPeriodKind = z.enum(['day', 'week', 'month', 'year']);
export type SummaryPeriodKind = z.infer<typeof SummaryPeriodKind>;

/** The form of an IANA time zone name (Area/Location, Etc/GMT+5, UTC, EST5EDT). */
export const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/** Whether the tz database here names the zone (its names change with its releases). */
export const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export const PeriodSummaryQuery = z
  .object({
    date: z.iso
      .date()
      .optional()
      .meta({ description: 'A day inside the period (YYYY-MM-DD); default today' }),
    timeZone: z
      .string()
      .max(64)
      .regex(TIME_ZONE_NAME, 'Not a time zone')
      .optional()
      .meta({
        description:
          'IANA time zone the period is counted in, e.g. Europe/Paris; default UTC. A name of ' +
          "this form that the server's tz database lacks answers 422 UNPROCESSABLE",
      }),
  })
  .meta({ id: 'PeriodSummaryQuery' });
export type PeriodSummaryQuery = z.input<typeof PeriodSummaryQuery>;

export const PeriodSummary = z
  .object({
    period: z.object({
      kind: SummaryPeriodKind,
      from: z.iso.datetime(),
      to: z.iso.datetime().meta({ description: 'Exclusive' }),
    }),
    summary: z.string().meta({ description: 'Empty when the period has no notes' }),
    keywords: z.array(z.string()).meta({ description: 'What the period was most about' }),
    notes: z.array(NoteRef).meta({ description: 'The notes summarised, oldest first' }),
    totalNotes: z.number().int(),
    method: AiMethod,
    model: z.string().optional(),
    cached: z.boolean(),
    generatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PeriodSummary' });
export type PeriodSummary = z.infer<typeof PeriodSummary>;

export const AiSearchQuery = z
  .object({
    query: notBlank('Say what to search for').max(500).trim(),
    limit: z.coerce.number().int().min(1).max(50).default(10),
  })
  .meta({ id: 'AiSearchQuery' });
export type AiSearchQuery = { query: string; limit?: number };

export const RelatedQuery = z
  .object({
    noteId: NoteId,
    limit: z.coerce.number().int().min(1).max(50).default(5),
  })
  .meta({ id: 'RelatedQuery' });
export type RelatedQuery = { noteId: string; limit?: number };

export const AiHit = z
  .object({
    note: NoteRef.extend({
      snippet: z.string().meta({ description: 'The passage that matched best' }),
      tags: z.array(z.string()),
      updatedAt: z.iso.datetime(),
    }),
    score: z.number().meta({ description: 'Higher is better; comparable within one answer only' }),
    sources: z
      .array(z.enum(['fulltext', 'semantic']))
      .meta({ description: 'Which rankings found the note' }),
    nearest: z.boolean().meta({
      description:
        'True when no note is clearly about the query: a search lists the few nearest in meaning instead of nothing',
    }),
  })
  .meta({ id: 'AiHit' });
export type AiHit = z.infer<typeof AiHit>;

export const AiHitList = listOf(AiHit).meta({
  id: 'AiHitList',
  description: 'Best first; search ranks by meaning, with the query words as evidence',
});
export type AiHitList = z.infer<typeof AiHitList>;

export const ChatAnswerRequest = z
  .object({
    question: notBlank('Ask a question').max(4000).trim(),
    chatId: ChatId.optional().meta({ description: 'Continue this conversation; none starts one' }),
  })
  .meta({ id: 'ChatAnswerRequest' });
export type ChatAnswerRequest = z.input<typeof ChatAnswerRequest>;

export const ChatMessage = z
  .object({
    id: z.uuid(),
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    citations: z.array(NoteRef),
    method: AiMethod.optional(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatSummary = z
  .object({
    id: z.uuid(),
    title: z.string(),
    messageCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatSummary' });
export type ChatSummary = z.infer<typeof ChatSummary>;

export const ChatList = listOf(ChatSummary).meta({ id: 'ChatList' });
export type ChatList = z.infer<typeof ChatList>;

export const ChatListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .meta({ id: 'ChatListQuery' });
export type ChatListQuery = { page?: number; limit?: number };

export const ChatIdParams = z.object({ chatId: ChatId });

export const Chat = ChatSummary.extend({ messages: z.array(ChatMessage) }).meta({ id: 'Chat' });
export type Chat = z.infer<typeof Chat>;

export const KnowledgeGenerate = z
  .object({
    chatId: ChatId,
    messageId: z.uuid().optional().meta({ description: 'The answer to use; default the last' }),
  })
  .meta({ id: 'KnowledgeGenerate' });
export type KnowledgeGenerate = z.input<typeof KnowledgeGenerate>;

export const GenerateByContent = z
  .object({
    content: notBlank('Give the content').max(200_000).trim(),
  })
  .meta({ id: 'GenerateByContent' });
export type GenerateByContent = z.input<typeof GenerateByContent>;

export const GenerateByTranscription = requireOneOf(
  z.object({
    noteId: NoteId.optional().meta({ description: 'A note whose body is a transcription' }),
    transcription: notBlank('Give the transcription').max(200_000).trim().optional(),
  }),
  { noteId: 'present', transcription: 'present' },
  'Give the note holding the transcription, or the transcription',
  { id: 'GenerateByTranscription', description: 'The transcription, or the note holding it' },
);
export type GenerateByTranscription = z.input<typeof GenerateByTranscription>;

export const GeneratedNote = z
  .object({
    title: z.string(),
    note: z.string().meta({ description: 'The body, in Markdown' }),
    tags: z.array(Tag),
    sources: z.array(NoteRef).meta({ description: 'Notes the text rests on (knowledge)' }),
    method: AiMethod,
    model: z.string().optional(),
  })
  .meta({
    id: 'GeneratedNote',
    description: 'A draft: nothing is saved until it is created as a note',
  });
export type GeneratedNote = z.infer<typeof GeneratedNote>;

export const ImageAnalyze = z
  .object({
    imageUrls: z
      .array(
        z
          .string()
          .regex(NOTE_IMAGE_PATH, 'Only images of your notes: /api/notes/{id}/images/{name}'),
      )
      .min(1, 'Give at least one image')
      .max(10, 'At most 10 images at once'),
  })
  .meta({ id: 'ImageAnalyze' });
export type ImageAnalyze = z.input<typeof ImageAnalyze>;

export const ImageAnalysis = z
  .object({
    images: z.array(z.object({ imageUrl: z.string(), description: z.string() })),
    model: z.string(),
    usage: TokenUsage.optional(),
  })
  .meta({ id: 'ImageAnalysis' });
export type ImageAnalysis = z.infer<typeof ImageAnalysis>;

/** The AI features, in the order a settings page lists them. */
export const aiFeatures = [
  'writer',
  'askai',
  'summaries',
  'search',
  'related',
  'chat',
  'generate',
  'transcription',
  'imageAnalysis',
] as const;

export const AiFeature = z.enum(aiFeatures);
export type AiFeature = z.infer<typeof AiFeature>;

export const AiSettings = z
  .object({
    provider: z.enum(['openai', 'local']).meta({
      description: 'openai: any OpenAI-compatible API; local: built in, no model and no network',
    }),
    models: z.object({
      chat: z.string().nullable(),
      embeddings: z.string(),
      retrieval: z.string().nullable().meta({
        description:
          'A second model search fuses with the first (the built-in e5); null when there is none',
      }),
      transcription: z.string().nullable(),
      vision: z.string().nullable(),
    }),
    features: z
      .record(AiFeature, z.enum(['model', 'extractive', 'unavailable']))
      .meta({ description: 'How each feature works here: by a model, without one, or not at all' }),
    excludedTags: z.array(z.string()).meta({
      description: 'Notes with any of these tags are never sent to a provider nor used in answers',
    }),
    usage: z.object({
      month: z.string().meta({ description: 'YYYY-MM, UTC' }),
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
    }),
    index: z.object({
      notes: z.number().int().meta({ description: 'Notes of the user in the AI index' }),
      pending: z.number().int().meta({ description: 'Notes waiting to be indexed again' }),
      retrievalPending: z.number().int().meta({
        description:
          "Chunks of the user's notes the retrieval model has not embedded yet (search ranks them by the embedding model meanwhile)",
      }),
    }),
  })
  .meta({ id: 'AiSettings' });
export type AiSettings = z.infer<typeof AiSettings>;

export const AiSettingsUpdate = z
  .object({
    excludedTags: z
      .array(Tag)
      .max(100)
      .transform((tags) => [...new Set(tags)]),
  })
  .meta({ id: 'AiSettingsUpdate' });
export type AiSettingsUpdate = z.input<typeof AiSettingsUpdate>;

/** Refused for a note with a tag excluded from AI, or one not found. */
const aiNoteErrors = [
  [403, 'The note has a tag excluded from AI (code AI_EXCLUDED)'],
  404,
] as const;

const aiApi = routesFor('ai', 'ai');
const knowledgeApi = routesFor('ai', 'knowledge');

const writer = <B extends z.ZodType>(path: string, summary: string, body: B, description: string) =>
  aiApi.post(path, {
    summary,
    body,
    answer: events(AiStreamEvent, description),
    errors: [...aiNoteErrors, 501],
  });

/** The routes of AI assistance and the knowledge chat. */
export const aiRoutes = {
  aiWriterAssist: writer(
    '/ai/writer/assist',
    'Continue, rewrite, shorten, expand, fix or translate the selected text (or the note)',
    WriterAssist,
    'The new text, token by token',
  ),
  aiWriterAskAi: writer(
    '/ai/writer/askai',
    'A free question about the note being written',
    WriterAskAi,
    'The answer, token by token',
  ),
  aiSummarizeNote: aiApi.post('/ai/note/assist/summarize/note', {
    summary: "A note's summary (by the model, or its central sentences without one); cached",
    body: SummarizeNote,
    answer: ok(NoteSummary, 'The summary'),
    errors: aiNoteErrors,
  }),
  aiSummarizePeriod: aiApi.get('/ai/note/assist/summarize/:kind', {
    summary: 'What the user wrote in a day, week, month or year; cached until its notes change',
    params: z.object({ kind: SummaryPeriodKind }),
    query: PeriodSummaryQuery,
    answer: ok(PeriodSummary, 'The summary'),
    errors: [[422, 'A timeZone the tz database here does not name (code UNPROCESSABLE)']],
  }),
  aiSearch: aiApi.get('/ai/note/assist/search', {
    summary: 'Search by words and by meaning, fused',
    query: AiSearchQuery,
    answer: ok(AiHitList, 'The notes found, best first'),
  }),
  aiRelated: aiApi.get('/ai/note/assist/related', {
    summary: 'The notes most related to a note',
    query: RelatedQuery,
    answer: ok(AiHitList, 'Related notes, best first'),
    errors: aiNoteErrors,
  }),
  aiSettingsGet: aiApi.get('/ai/settings', {
    summary: 'The AI provider and models in use, how each feature works, usage, excluded tags',
    answer: ok(AiSettings, 'AI settings'),
  }),
  aiSettingsUpdate: aiApi.put('/ai/settings', {
    summary: 'Set the tags whose notes are never sent to an AI provider',
    body: AiSettingsUpdate,
    answer: ok(AiSettings, 'AI settings'),
  }),
  knowledgeChatAnswer: knowledgeApi.post('/api/knowledge/chat/answer', {
    summary: "Answer a question from the user's notes, citing them; keeps the conversation",
    body: ChatAnswerRequest,
    answer: events(AiStreamEvent, 'chat, citations, the answer token by token, then done'),
    errors: [404],
  }),
  knowledgeChatList: knowledgeApi.get('/api/knowledge/chat/history', {
    summary: 'Conversations, most recent first',
    query: ChatListQuery,
    answer: ok(ChatList, 'Conversations'),
  }),
  knowledgeChatGet: knowledgeApi.get('/api/knowledge/chat/history/:chatId', {
    summary: 'One conversation with its messages',
    params: ChatIdParams,
    answer: ok(Chat, 'The conversation'),
    errors: [404],
  }),
  knowledgeChatDelete: knowledgeApi.delete('/api/knowledge/chat/history/:chatId', {
    summary: 'Delete a conversation',
    params: ChatIdParams,
    answer: noContent('Deleted'),
    errors: [404],
  }),
  knowledgeGenerate: knowledgeApi.post('/api/knowledge/generate', {
    summary: 'Draft a note from an answer of a conversation (nothing is saved)',
    body: KnowledgeGenerate,
    answer: ok(GeneratedNote, 'The draft'),
    errors: [404],
  }),
  noteGenerateByContent: aiApi.post('/api/note/generate/bycontent', {
    summary: 'Draft a note (title, body, tags) from raw content',
    body: GenerateByContent,
    answer: ok(GeneratedNote, 'The draft'),
  }),
  noteGenerateByTranscription: aiApi.post('/api/note/generate/bytranscription', {
    summary: 'Draft a note from a transcription (given, or the body of a note)',
    body: GenerateByTranscription,
    answer: ok(GeneratedNote, 'The draft'),
    errors: [...aiNoteErrors, [422, 'The note holds no transcription (code NO_TEXT_FOUND)']],
  }),
  noteImagesAnalyze: aiApi.post('/api/note/images/analyze', {
    summary: "Describe images of the user's notes with the vision model",
    body: ImageAnalyze,
    answer: ok(ImageAnalysis, 'One description per image'),
    errors: [...aiNoteErrors, 501],
  }),
};
