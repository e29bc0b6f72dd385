import type {
  GeneratedNote,
  NoteRef,
  GenerateByContent,
  GenerateByTranscription,
  KnowledgeGenerate,
} from '@noted/api';
import { AppError, Tag, type Parsed } from '@noted/api';
import { chatRepository } from '../chat/repository.js';
import { noteForAi, type AiContext } from '../context.js';
import { tagsFor, titleFor } from '../local/keywords.js';
import { TAG_SUGGESTIONS, tagContext, type TagContext } from './tags.js';
import { plainText, sentences } from '@noted/kit';
import { summarizeExtractive } from '../local/textrank.js';
import { chatText } from '../providers/port.js';

export type GenerationSource = 'content' | 'transcription' | 'answer';

/** Content given to a model, at most (about 8,000 tokens). */
const CONTENT_CHARS = 32_000;

const instructions: Record<GenerationSource, string> = {
  content:
    'Turn the content below into a well-organised note: a short title, the body in Markdown ' +
    '(headings, lists where they help; keep every fact, link and number), and up to three tags.',
  transcription:
    'The content below is a transcription of speech. Turn it into a clean note: a short ' +
    'title, a body in Markdown that starts with a two-sentence summary and then gives the ' +
    'content tidied (no filler words, paragraphs, lists for enumerations), and up to three tags.',
  answer:
    "Below is a question and an answer drawn from the user's notes. Turn them into a note " +
    'that stands on its own: a short title, the body in Markdown, and up to three tags.',
};

const validTags = (tags: unknown): string[] =>
  Array.isArray(tags)
    ? [
        ...new Set(
          tags.flatMap((tag) => {
            const parsed = Tag.safeParse(typeof tag === 'string' ? tag.replace(/^#/, '') : tag);
            return parsed.success ? [parsed.data.toLowerCase()] : [];
          }),
        ),
      ].slice(0, TAG_SUGGESTIONS)
    : [];

const byModel = async (
  ctx: AiContext,
  userId: string,
  source: GenerationSource,
  content: string,
  tags: TagContext,
) => {
  // The tags the nearest notes share come first: they are the ones the user would pick.
  const known = [...new Set([...tags.neighbourTags, ...tags.existingTags])];
  const { text } = await chatText(
    ctx.provider.chat(
      [
        {
          role: 'system',
          content:
            'You write notes for Noted, a note-taking app. Answer with one JSON object ' +
            '{"title": string, "note": string, "tags": string[]} and nothing else. Tags name ' +
            'topics: single lower-case words or two-word hyphenated phrases, no numbers; ' +
            "prefer the user's existing tags, and add a new one only when none fits: " +
            `${known.slice(0, 50).join(', ') || '(none)'}. Write in the language of the content.`,
        },
        {
          role: 'user',
          content: `${instructions[source]}\n\n"""\n${content.slice(0, CONTENT_CHARS)}\n"""`,
        },
      ],
      { json: true, maxTokens: 3000, temperature: 0.3 },
      { userId, purpose: 'generate' },
    ),
  );
  let parsed: { title?: unknown; note?: unknown; tags?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new AppError('AI_PROVIDER_FAILED', 'The model did not answer with a note', {
      reason: 'not JSON',
    });
  }
  if (typeof parsed.note !== 'string' || parsed.note.trim() === '') {
    throw new AppError('AI_PROVIDER_FAILED', 'The model did not answer with a note', {
      reason: 'no body',
    });
  }
  return {
    title: typeof parsed.title === 'string' ? parsed.title.trim().slice(0, 500) : '',
    note: parsed.note,
    tags: validTags(parsed.tags),
  };
};

/** Paragraphs of a few sentences each, for text that came without any (speech). */
const paragraphsOf = (text: string) => {
  const all = sentences(text);
  const paragraphs: string[] = [];
  for (let start = 0; start < all.length; start += 4) {
    paragraphs.push(all.slice(start, start + 4).join(' '));
  }
  return paragraphs.join('\n\n');
};

/** Without a model: the content itself, titled and tagged from its own words. */
const byText = (source: GenerationSource, content: string, context: TagContext) => {
  const tags = tagsFor(content, { limit: TAG_SUGGESTIONS, ...context });
  if (source !== 'transcription') {
    return { title: titleFor(content), note: content.trim(), tags };
  }
  const plain = plainText(content);
  const title = titleFor(plain);
  const summary = summarizeExtractive(plain, { maxSentences: 2, title }).join(' ');
  return {
    title,
    note: `## Summary\n\n${summary}\n\n## Transcript\n\n${paragraphsOf(plain)}`,
    tags,
  };
};

/** Where a draft comes from besides its content. */
export interface DraftOptions {
  /** The notes an answer drew on, cited by the draft. */
  sources?: NoteRef[];
  /** The note the draft is for (a capture's), left out of the notes its tags are drawn from. */
  noteId?: string;
}

/** A draft note (title, body, up to three suggested tags) from raw content; nothing is saved. */
export const generateNote = async (
  ctx: AiContext,
  userId: string,
  source: GenerationSource,
  content: string,
  { sources = [], noteId }: DraftOptions = {},
): Promise<GeneratedNote> => {
  const tags = await tagContext(ctx, userId, content, noteId);
  const model = ctx.provider.models.chat;
  if (model) {
    const draft = await byModel(ctx, userId, source, content, tags);
    return { ...draft, sources, method: 'model', model };
  }
  return { ...byText(source, content, tags), sources, method: 'extractive' };
};

/** A note drafted from `content` alone, as it is without a chat model. */
export const generateNoteWithoutModel = async (
  ctx: AiContext,
  userId: string,
  source: GenerationSource,
  content: string,
  { noteId }: DraftOptions = {},
): Promise<GeneratedNote> => {
  const tags = await tagContext(ctx, userId, content, noteId);
  return { ...byText(source, content, tags), sources: [], method: 'extractive' };
};

export const generateByContent = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof GenerateByContent>,
) => {
  const { content } = input;
  return generateNote(ctx, userId, 'content', content);
};

export const generateByTranscription = async (
  ctx: AiContext,
  userId: string,
  body: Parsed<typeof GenerateByTranscription>,
) => {
  const transcription =
    body.transcription ?? (await noteForAi(ctx, userId, body.noteId as string)).body;
  if (!transcription.trim()) {
    throw new AppError('NO_TEXT_FOUND', 'The note holds no transcription');
  }
  return generateNote(ctx, userId, 'transcription', transcription);
};

/** A note from one answer of a knowledge chat (default its last), citing the notes it used. */
export const knowledgeGenerate = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof KnowledgeGenerate>,
) => {
  const { chatId, messageId } = input;
  const chat = await chatRepository.find(ctx.knex, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'No such conversation');
  const messages = await chatRepository.messages(ctx.knex, userId, chatId);
  const at = messageId
    ? messages.findIndex((message) => message.id === messageId && message.role === 'assistant')
    : messages.map((message) => message.role).lastIndexOf('assistant');
  const answer = messages[at];
  if (at < 0 || !answer) throw new AppError('NOT_FOUND', 'No such answer in this conversation');
  const question = [...messages.slice(0, at)].reverse().find((message) => message.role === 'user');
  const sources = answer.citations;
  const draft = await generateNote(
    ctx,
    userId,
    'answer',
    `Question: ${question?.content ?? chat.title}\n\nAnswer:\n${answer.content}`,
    { sources },
  );
  if (draft.method === 'model') return draft;
  // Without a model the note is the answer itself under its question, linking its sources.
  const links = sources.map((note) => `- [[${note.title || 'Untitled note'}]]`).join('\n');
  return {
    ...draft,
    title: titleFor(question?.content ?? chat.title),
    note: `${answer.content}${links ? `\n\n## Sources\n\n${links}` : ''}`,
  };
};
