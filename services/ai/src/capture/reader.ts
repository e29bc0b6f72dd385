import {
  AppError,
  CAPTURE_AUDIO_MAX_BYTES,
  CAPTURE_PAGE_MAX_BYTES,
  type CaptureStep,
} from '@noted/api';
import { toAppError, type Logger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import type { AiContext } from '../context.js';
import { generateNote, generateNoteWithoutModel } from '../generate/usecases.js';
import { titleFor } from '../local/keywords.js';
import { suggestTags } from '../generate/tags.js';
import { summarizeExtractive } from '../local/textrank.js';
import { chatText } from '../providers/port.js';
import type { ArticleReader } from './article-reader.js';
import type { SafeFetch } from './fetch.js';
import type { Ocr } from './ocr.js';
import type { PdfReader } from './pdf.js';

/** What reading a capture takes besides the AI context. */
export interface CaptureTools {
  fetch: SafeFetch;
  ocr: Ocr;
  pdf: PdfReader;
  article: ArticleReader;
}

/** A capture as the notes service describes it. */
export type CaptureSource = notesV1.GetCaptureResponse;

/** What reading gave, for CompleteCapture. */
export interface CaptureDraft {
  title: string;
  body: string;
  tags: string[];
  method: string;
  model?: string;
  siteName?: string;
  pageCount?: number;
  truncated?: boolean;
}

const PAGE_FETCH = { maxBytes: CAPTURE_PAGE_MAX_BYTES, timeoutMs: 20_000, maxRedirects: 5 };
const AUDIO_FETCH = { maxBytes: CAPTURE_AUDIO_MAX_BYTES, timeoutMs: 120_000, maxRedirects: 5 };

const isHtml = (type: string) => type === 'text/html' || type === 'application/xhtml+xml';
/** Audio servers often say octet-stream; the notes service judges the bytes either way. */
const isAudioLike = (type: string) =>
  type.startsWith('audio/') ||
  type === 'video/webm' ||
  type === 'video/ogg' ||
  type === 'video/mp4' ||
  type === 'application/ogg' ||
  type === 'application/octet-stream' ||
  type === 'binary/octet-stream';

/**
 * A few sentences on the text: the chat model's when there is one, else the text's own (its
 * `title` not among them).
 */
const summaryOf = async (
  ctx: AiContext,
  userId: string,
  text: string,
  title: string,
): Promise<{ summary: string; model?: string }> => {
  const model = ctx.provider.models.chat;
  if (model) {
    const { text: summary } = await chatText(
      ctx.provider.chat(
        [
          {
            role: 'system',
            content:
              'Summarise the document the user gives in two or three sentences, in the ' +
              'language of the document. Answer with the summary only.',
          },
          { role: 'user', content: text.slice(0, 32_000) },
        ],
        { maxTokens: 300, temperature: 0.2 },
        { userId, purpose: 'generate' },
      ),
    );
    return { summary: summary.trim(), model };
  }
  return { summary: summarizeExtractive(text, { maxSentences: 3, title }).join(' ') };
};

const withSummary = (summary: string, heading: string, text: string) =>
  summary ? `## Summary\n\n${summary}\n\n## ${heading}\n\n${text}` : text;

/**
 * The note drafted from text read off a capture: by the chat model when there is one. Text that
 * cost a transcription or a vision call is never lost to the draft: when the model fails (down,
 * or answering no note), the draft is made from the text alone.
 */
const draftOf = async (
  ctx: AiContext,
  userId: string,
  noteId: string,
  source: 'content' | 'transcription',
  text: string,
) => {
  try {
    return await generateNote(ctx, userId, source, text, { noteId });
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'AI_PROVIDER_FAILED') throw error;
    ctx.logger.warn({ err: error }, 'the capture is drafted without the chat model, which failed');
    return generateNoteWithoutModel(ctx, userId, source, text, { noteId });
  }
};

/** An image: the vision model describes and transcribes it, else local OCR reads its text. */
const readImage = async (
  ctx: AiContext,
  tools: CaptureTools,
  userId: string,
  noteId: string,
  source: CaptureSource,
): Promise<CaptureDraft> => {
  if (source.data.length === 0) {
    throw new AppError('NO_TEXT_FOUND', 'The image is no longer with the note');
  }
  const vision = ctx.provider.models.vision;
  let text: string;
  if (vision) {
    const dataUrl = `data:${source.mimeType};base64,${Buffer.from(source.data).toString('base64')}`;
    const answer = await chatText(
      ctx.provider.chat(
        [
          {
            role: 'user',
            content: {
              text:
                'This image was captured into a note-taking app. Transcribe every piece of ' +
                'text in it word for word (keep lists and headings as Markdown), then describe ' +
                'in one or two sentences what it shows. Answer in Markdown, nothing else.',
              imageUrls: [dataUrl],
            },
          },
        ],
        { maxTokens: 2000, temperature: 0.1 },
        { userId, purpose: 'vision' },
      ),
    );
    text = answer.text.trim();
  } else {
    text = (await tools.ocr.read(source.data)).text;
  }
  if (!text) {
    // The image stays with the note; there is just no text to add.
    return { title: '', body: '', tags: [], method: vision ? 'vision' : 'ocr' };
  }
  const draft = await draftOf(ctx, userId, noteId, 'content', text);
  return {
    title: draft.title,
    body: draft.method === 'model' ? draft.note : text,
    tags: draft.tags,
    method: vision ? 'vision' : 'ocr',
    ...(vision || draft.model ? { model: vision ?? draft.model } : {}),
  };
};

const readPdf = async (
  ctx: AiContext,
  tools: CaptureTools,
  userId: string,
  noteId: string,
  source: CaptureSource,
): Promise<CaptureDraft> => {
  const pdf = await tools.pdf.read(source.data);
  const pages = pdf.pages.map((page) => page.trim());
  if (pages.every((page) => page === '')) {
    throw new AppError(
      'NO_TEXT_FOUND',
      'This PDF has no text to read (it may be a scan); it is kept with the note',
    );
  }
  const text = pages.filter(Boolean).join('\n\n');
  const title = pdf.title?.trim() || titleFor(text);
  // A PDF breaks its lines where the page ends them, mid-sentence: the summary reads a long
  // line that ends no sentence joined to the next (a short one is a heading, left alone).
  const prose = text.replace(/^(.{40,}[^.!?:;。！？\s])\n(?=\S)/gmu, '$1 ');
  const { summary, model } = await summaryOf(ctx, userId, prose, title);
  const truncatedNote = pdf.truncated
    ? `\n\n_Only the first ${pages.length} of ${pdf.pageCount} pages were read._`
    : '';
  return {
    title,
    body: withSummary(summary, 'Text', text) + truncatedNote,
    tags: await suggestTags(ctx, userId, text, noteId),
    method: 'pdf',
    ...(model ? { model } : {}),
    pageCount: pdf.pageCount,
    truncated: pdf.truncated,
  };
};

const readLink = async (
  ctx: AiContext,
  tools: CaptureTools,
  userId: string,
  noteId: string,
  source: CaptureSource,
  step: (step: CaptureStep) => Promise<void>,
): Promise<CaptureDraft> => {
  await step('fetching');
  const page = await tools.fetch(source.url, {
    types: isHtml,
    limits: PAGE_FETCH,
    header: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  });
  await step('reading');
  const html = new TextDecoder(charsetOf(page.charset)).decode(page.body);
  const article = await tools.article.read(html, page.url);
  const site = article.siteName ?? new URL(page.url).hostname;
  const title = articleTitle(article.title, site, article.markdown);
  const { summary, model } = await summaryOf(ctx, userId, article.markdown, title);
  const byline = [article.byline, article.publishedTime?.slice(0, 10)].filter(Boolean).join(', ');
  const header = `> Source: [${site}](${page.url})${byline ? ` · ${byline}` : ''}`;
  return {
    title,
    body: `${header}\n\n${withSummary(summary, 'Article', article.markdown)}`,
    tags: await suggestTags(ctx, userId, `${article.title}\n\n${article.markdown}`, noteId),
    method: 'article',
    ...(model ? { model } : {}),
    siteName: site,
  };
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A page's title without the site's name pages append to it ("Tidal power | Example News"),
 * or the article's first heading when that is the fuller form of it.
 */
const articleTitle = (title: string, site: string, markdown: string) => {
  const bare = title
    .replace(new RegExp(`\\s*[|\\-–—·:]\\s*${escapeRegExp(site)}\\s*$`, 'i'), '')
    .trim();
  const heading = /^#{1,2}\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  if (heading && bare && heading.toLowerCase().includes(bare.toLowerCase())) return heading;
  return bare || heading || titleFor(markdown);
};

/** Labels a decoder knows; anything else is read as UTF-8. */
const charsetOf = (charset: string | undefined) => {
  try {
    return new TextDecoder(charset ?? 'utf-8').encoding;
  } catch {
    return 'utf-8';
  }
};

const fileNameOf = (url: string) => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
};

const readAudio = async (
  ctx: AiContext,
  tools: CaptureTools,
  userId: string,
  noteId: string,
  source: CaptureSource,
  step: (step: CaptureStep) => Promise<void>,
): Promise<CaptureDraft> => {
  let { data, mimeType } = source;
  let fileName = source.fileName;
  if (data.length === 0) {
    if (!source.url) throw new AppError('NOT_AUDIO', 'The recording is no longer with the note');
    await step('fetching');
    const fetched = await tools.fetch(source.url, {
      types: isAudioLike,
      limits: AUDIO_FETCH,
      header: 'audio/*,*/*;q=0.5',
    });
    fileName = fileNameOf(fetched.url) || 'audio';
    // The notes service judges the bytes (format, length against the plan) and keeps them.
    const kept = await ctx.notes.attachCaptureFile(
      userId,
      noteId,
      source.attempt,
      fetched.body,
      fileName,
    );
    data = fetched.body;
    mimeType = kept.mimeType;
  }
  await step('transcribing');
  const transcript = await ctx.provider.transcribe(
    { data, fileName: fileName || 'audio', mimeType },
    { userId, purpose: 'transcribe' },
  );
  if (!transcript.text.trim()) {
    throw new AppError('NO_TEXT_FOUND', 'No speech was heard in the recording; it is kept');
  }
  await step('writing');
  const draft = await draftOf(ctx, userId, noteId, 'transcription', transcript.text);
  return {
    title: draft.title,
    body: draft.note,
    tags: draft.tags,
    method: 'transcription',
    model: transcript.model,
  };
};

/** Reads one capture into a draft of its note. */
export const readCapture = async (
  ctx: AiContext,
  tools: CaptureTools,
  userId: string,
  noteId: string,
  source: CaptureSource,
  step: (step: CaptureStep) => Promise<void>,
): Promise<CaptureDraft> => {
  switch (source.kind) {
    case notesV1.CaptureKind.IMAGE:
      await step('reading');
      return readImage(ctx, tools, userId, noteId, source);
    case notesV1.CaptureKind.PDF:
      await step('reading');
      return readPdf(ctx, tools, userId, noteId, source);
    case notesV1.CaptureKind.LINK:
      return readLink(ctx, tools, userId, noteId, source, step);
    case notesV1.CaptureKind.AUDIO:
      return readAudio(ctx, tools, userId, noteId, source, step);
    default:
      throw new AppError('VALIDATION_FAILED', 'Unknown kind of capture');
  }
};

/**
 * Errors that another try would meet again, or would pay for again: the capture fails at once
 * with them, and the note's Retry reads it again when the user asks. A URL past its deadline is
 * one: a site that trickles is as slow the next minute, and five tries would hold a reader for
 * five deadlines (10 minutes for audio) while other users' captures wait.
 */
const PERMANENT = new Set([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'NOT_AN_IMAGE',
  'NOT_AUDIO',
  'NOT_A_PDF',
  'RECORDING_TOO_LONG',
  'URL_REFUSED',
  'NO_TEXT_FOUND',
  'FETCH_FAILED',
  'FETCH_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'AI_EXCLUDED',
  'FORBIDDEN',
]);

export type ReadOutcome =
  | { kind: 'waiting'; error: { code: string; message: string } }
  | { kind: 'failed'; error: { code: string; message: string } }
  | { kind: 'retry'; error: unknown };

/** What to do with an error: fail the capture now, wait for a model, or try again later. */
export const outcomeOf = (error: unknown, lastTry: boolean, logger: Logger): ReadOutcome => {
  const app = toAppError(error);
  if (app.code === 'AI_MODEL_REQUIRED') {
    return {
      kind: 'waiting',
      error: {
        code: app.code,
        message:
          'Transcription needs a speech-to-text model (OPENAI_BASE_URL and ' +
          'OPENAI_TRANSCRIPTION_MODEL); the audio is kept and is read once one is configured',
      },
    };
  }
  if (PERMANENT.has(app.code)) {
    return { kind: 'failed', error: { code: app.code, message: app.message } };
  }
  if (!lastTry) return { kind: 'retry', error };
  logger.error({ err: error }, 'a capture could not be read after its last try');
  return {
    kind: 'failed',
    error: {
      code: app.code,
      message:
        app.code === 'INTERNAL'
          ? 'Reading failed on our side; try again'
          : `Reading failed after several tries: ${app.message}`,
    },
  };
};
