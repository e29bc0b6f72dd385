import type {
  NoteSummary,
  PeriodSummary,
  SummaryPeriodKind,
  PeriodSummaryQuery,
  SummarizeNote,
} from '@noted/api';
import { AppError, isTimeZone, type Parsed } from '@noted/api';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { notesV1 } from '@noted/proto';
import { excludedTagsOf, isExcluded, noteForAi, type AiContext } from '../context.js';
import { topicsFor } from '../local/keywords.js';
import { sameText } from '../local/structure.js';
import { plainText } from '@noted/kit';
import { summarizeDocuments, summarizeExtractive } from '../local/textrank.js';
import { chatText } from '../providers/port.js';
import { periodOf } from './periods.js';
import { summariesRepository } from './repository.js';

/** The most notes one period summary reads (the newest beyond it are counted, not read). */
const PERIOD_NOTES = 200;
/** Text of a period's notes given to a model, at most (about 6,000 tokens). */
const PERIOD_CHARS = 24_000;
const SENTENCES: Record<SummaryPeriodKind, number> = { day: 4, week: 6, month: 8, year: 10 };

const noteSummaryPrompt =
  'Summarise the note below in two to four sentences, in its own language. Answer with the ' +
  'summary only.';

const periodPrompt = (kind: SummaryPeriodKind) =>
  `Below are the notes a person wrote during one ${kind}. Write a short summary of that ` +
  `${kind}: what they worked on, decided, learned and planned, as a few Markdown bullet points, ` +
  'in the language most of the notes are in. Mention note titles where it helps. Answer with ' +
  'the summary only.';

const summarizeByModel = async (
  ctx: AiContext,
  userId: string,
  instruction: string,
  text: string,
) => {
  const { text: summary } = await chatText(
    ctx.provider.chat(
      [
        { role: 'system', content: 'You are the summariser of Noted, a note-taking app.' },
        { role: 'user', content: `${instruction}\n\n"""\n${text}\n"""` },
      ],
      { maxTokens: 600, temperature: 0.2 },
      { userId, purpose: 'summary' },
    ),
  );
  return summary.trim();
};

/** A note's summary, cached until the note changes: by the model, or its central sentences. */
export const summarizeNote = async (
  ctx: AiContext,
  userId: string,
  input: Parsed<typeof SummarizeNote>,
): Promise<NoteSummary> => {
  const { noteId } = input;
  const note = await noteForAi(ctx, userId, noteId);
  const cached = await summariesRepository.find<Omit<NoteSummary, 'cached' | 'generatedAt'>>(
    ctx.knex,
    userId,
    'note',
    noteId,
  );
  if (cached) {
    return { ...cached.content, cached: true, generatedAt: cached.generatedAt.toISOString() };
  }
  const text = `${note.title}\n\n${plainText(note.body)}`.trim();
  const model = ctx.provider.models.chat;
  const content = model
    ? {
        noteId,
        summary: await summarizeByModel(ctx, userId, noteSummaryPrompt, text),
        method: 'model' as const,
        model,
      }
    : {
        noteId,
        summary: summarizeExtractive(note.body, { maxSentences: 3, title: note.title }).join(' '),
        method: 'extractive' as const,
      };
  const generatedAt = new Date();
  await summariesRepository.save(ctx.knex, {
    userId,
    kind: 'note',
    key: noteId,
    content,
    generatedAt,
  });
  return { ...content, cached: false, generatedAt: generatedAt.toISOString() };
};

const periodText = (notes: notesV1.Note[]) => {
  const share = Math.max(400, Math.floor(PERIOD_CHARS / Math.max(1, notes.length)));
  return notes
    .map((note) => {
      const day = note.createdAt ? timestampDate(note.createdAt).toISOString().slice(0, 10) : '';
      return `## ${note.title || '(untitled)'} (${day})\n${plainText(note.body).slice(0, share)}`;
    })
    .join('\n\n')
    .slice(0, PERIOD_CHARS);
};

/** Text shown as it is in Markdown: its emphasis, code and link characters escaped. */
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>|~])/g, '\\$1');

/**
 * Without a model: one bullet per note with the most central sentences of the period, the
 * note's title in bold and its sentences after it (just the title when it is all the note says).
 */
export const extractivePeriod = (
  kind: SummaryPeriodKind,
  notes: Pick<notesV1.Note, 'id' | 'title' | 'body'>[],
) => {
  const picked = summarizeDocuments(
    notes.map((note) => ({ id: note.id, title: note.title, text: note.body })),
    { maxSentences: SENTENCES[kind] },
  );
  const byNote = new Map<string, string[]>();
  for (const { id, sentence } of picked) byNote.set(id, [...(byNote.get(id) ?? []), sentence]);
  const titles = new Map(notes.map((note) => [note.id, note.title.trim()]));
  return [...byNote]
    .map(([id, said]) => {
      const title = titles.get(id) ?? '';
      const told = said
        .filter((sentence) => !sameText(sentence, title))
        .map(escapeMarkdown)
        .join(' ');
      const bold = `**${escapeMarkdown(title || '(untitled)')}**`;
      return told === '' ? `- ${bold}` : `- ${bold}: ${told}`;
    })
    .join('\n');
};

/**
 * What the user wrote in a day, week, month or year (counted in their time zone), cached
 * until a note created in that period changes.
 */
export const summarizePeriod = async (
  ctx: AiContext,
  userId: string,
  kind: SummaryPeriodKind,
  query: Parsed<typeof PeriodSummaryQuery>,
): Promise<PeriodSummary> => {
  if (query.timeZone !== undefined && !isTimeZone(query.timeZone)) {
    throw new AppError('UNPROCESSABLE', `timeZone: the tz database here has no ${query.timeZone}`);
  }
  const { from, to, timeZone } = periodOf(kind, query);
  const key = `${from.toISOString()}|${timeZone}`;
  const cached = await summariesRepository.find<Omit<PeriodSummary, 'cached' | 'generatedAt'>>(
    ctx.knex,
    userId,
    kind,
    key,
  );
  if (cached) {
    return { ...cached.content, cached: true, generatedAt: cached.generatedAt.toISOString() };
  }
  const [{ notes: found, total }, excluded] = await Promise.all([
    ctx.notes.createdBetween(userId, from, to, PERIOD_NOTES),
    excludedTagsOf(ctx, userId),
  ]);
  const notes = found.filter((note) => !isExcluded(note, excluded));
  const model = ctx.provider.models.chat;
  const allText = notes.map((note) => `${note.title}\n${plainText(note.body)}`).join('\n\n');
  let summary = '';
  if (notes.length > 0) {
    summary = model
      ? await summarizeByModel(ctx, userId, periodPrompt(kind), periodText(notes))
      : extractivePeriod(kind, notes);
  }
  const content = {
    period: { kind, from: from.toISOString(), to: to.toISOString() },
    summary,
    keywords: notes.length > 0 ? topicsFor(allText, { limit: 8 }) : [],
    notes: notes.map((note) => ({ id: note.id, title: note.title })),
    totalNotes: total - (found.length - notes.length),
    method: model && notes.length > 0 ? ('model' as const) : ('extractive' as const),
    ...(model && notes.length > 0 ? { model } : {}),
  };
  const generatedAt = new Date();
  await summariesRepository.save(ctx.knex, {
    userId,
    kind,
    key,
    period: { from, to },
    content,
    generatedAt,
  });
  return { ...content, cached: false, generatedAt: generatedAt.toISOString() };
};
