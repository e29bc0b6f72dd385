import { AppError } from '@noted/api';
import { createSandbox, SandboxError, taskModule } from '@noted/sandbox';
// Types only: sharp and tesseract.js load in the sandbox's process, not here.
import type { OcrTask, OcrTaskResult } from './ocr.task.js';

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0-100. */
  confidence: number;
}

export interface Ocr {
  read(image: Uint8Array, signal?: AbortSignal): Promise<OcrResult>;
  close(): Promise<void>;
}

/** How long an unused OCR process is kept before it is ended. */
export const OCR_IDLE_MS = 120_000;

export interface OcrOptions {
  /** Default OCR_IDLE_MS. */
  idleMs?: number;
  /** Processes reading at once, each with its own Tesseract worker. */
  workers: number;
  /** Tesseract language codes, each installed as `@tesseract.js-data/<code>`. */
  languages?: readonly string[];
  /** One image, from the moment its process begins it (a minute unless said). */
  timeoutMs?: number;
  /** A process's resident memory: Tesseract's heap and the decoded image (448 MB unless said). */
  memoryMb?: number;
}

export const OCR_LANGUAGES: readonly string[] = ['eng', 'chi_sim'];

const OCR_TASK = taskModule(import.meta.url, 'ocr.task');

// Scripts written without spaces between words; Hangul is not one of them (Korean spaces words).
const UNSPACED =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\u30fb\\u30fc\\uff00-\\uffef';
const spaceInsideUnspaced = new RegExp(`(?<=[${UNSPACED}])[^\\S\\n]+(?=[${UNSPACED}])`, 'gu');
const singleUnspaced = new RegExp(`^[${UNSPACED}]$`, 'u');

/**
 * Tesseract's text made readable: it separates every CJK character (or word) with a space,
 * which is removed between two of them but kept between Latin words and between CJK and Latin;
 * lines trimmed, at most one blank line in a row, and lines that are only specks, rules or
 * border fragments dropped (nothing alphanumeric, or one stray non-CJK character).
 */
export const cleanOcrText = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(spaceInsideUnspaced, '')
        .replace(/[^\S\n]+/g, ' ')
        .trim(),
    )
    .filter((line) => line === '' || isText(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const isText = (line: string): boolean =>
  /[\p{L}\p{N}]/u.test(line) && (Array.from(line).length > 1 || singleUnspaced.test(line));

/**
 * Local OCR (English and Simplified Chinese by default) in a sandbox of `workers` processes,
 * each with one Tesseract worker started with its first image (it holds about 100 MB with both
 * languages) and ended after `idleMs` unused, its memory all given back. Reads beyond the
 * sandbox's size wait their turn; an aborted read ends its process. An image past its time or
 * memory fails with VALIDATION_FAILED ("too complex"), one that is none with NOT_AN_IMAGE.
 */
export const createOcr = (options: OcrOptions): Ocr => {
  const languages = options.languages ?? OCR_LANGUAGES;
  if (languages.length === 0) throw new Error('OCR needs at least one language');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const sandbox = createSandbox({
    name: 'ai-ocr',
    processes: options.workers,
    memoryMb: options.memoryMb ?? 448,
    // Tesseract and its languages stay loaded between images: a process is kept as it is.
    keepMb: options.memoryMb ?? 448,
    idleMs: options.idleMs ?? OCR_IDLE_MS,
  });

  return {
    async read(image, signal) {
      let result: OcrTaskResult;
      try {
        result = await sandbox.run<OcrTaskResult, OcrTask>({
          module: OCR_TASK,
          fn: 'recognizeImage',
          input: { image, languages },
          label: 'ocr',
          timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (error instanceof SandboxError && error.reason !== 'closed') {
          throw Object.assign(
            new AppError('VALIDATION_FAILED', 'The image is too complex to read'),
            {
              cause: error.reason,
            },
          );
        }
        throw error;
      }
      return {
        text: cleanOcrText(result.text),
        confidence: Math.max(0, Math.min(100, result.confidence)),
      };
    },
    close: () => sandbox.close(),
  };
};
