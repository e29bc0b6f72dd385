import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type sharpModule from 'sharp';
import type { Scheduler, Worker } from 'tesseract.js';
import { AppError, NOTE_IMAGE_MAX_PIXELS } from '@noted/api';
import { createSlots } from './slots.js';

export interface OcrResult {
  text: string;
  /** Tesseract's mean word confidence, 0-100. */
  confidence: number;
}

export interface Ocr {
  read(image: Uint8Array, signal?: AbortSignal): Promise<OcrResult>;
  close(): Promise<void>;
}

/** How long an unused OCR pool is kept before its workers are ended. */
export const OCR_IDLE_MS = 120_000;

export interface OcrOptions {
  /** Default OCR_IDLE_MS. */
  idleMs?: number;
  workers: number;
  /** Tesseract language codes, each installed as `@tesseract.js-data/<code>`. */
  languages?: readonly string[];
}

export const OCR_LANGUAGES: readonly string[] = ['eng', 'chi_sim'];

/**
 * The LSTM models at integer precision: tesseract.js's own choice for its default LSTM-only
 * engine, and a third of the size of the 4.0.0 folder's (which also carries the legacy engine).
 */
const MODEL_FOLDER = '4.0.0_best_int';

/** Below this longer side, text is usually smaller than Tesseract reads well: it is doubled. */
const UPSCALE_BELOW = 1000;
/**
 * Recognition time and Tesseract's memory grow with pixels; past this a (phone photo sized)
 * image is shrunk, which still leaves a page of text legible.
 */
const OCR_MAX_PIXELS = 16_000_000;
const IMAGE_FORMATS: ReadonlySet<string> = new Set(['png', 'jpeg', 'webp']);

type Sharp = typeof sharpModule;

/** libvips is loaded with the first image, with the settings of the notes service's images. */
let loadingSharp: Promise<Sharp> | undefined;
const loadSharp = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));

const notAnImage = () => new AppError('NOT_AN_IMAGE', 'The file given is not an image');

/**
 * A grayscale PNG that Tesseract reads best: EXIF orientation applied, transparency flattened
 * onto white (a dark-on-transparent screenshot would otherwise turn black), small images doubled.
 */
const prepareImage = async (image: Uint8Array): Promise<Buffer> => {
  const sharp = await loadSharp();
  // Reading the header decodes no pixels, so an image bomb is refused before it is decoded.
  const header = await sharp(image, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw notAnImage();
    });
  const { width, height } = header.autoOrient ?? header;
  if (!header.format || !IMAGE_FORMATS.has(header.format) || !width || !height) {
    throw notAnImage();
  }
  const pixels = width * height;
  if (pixels > NOTE_IMAGE_MAX_PIXELS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The image is too large (${pixels.toLocaleString('en-US')} pixels; at most ` +
        `${NOTE_IMAGE_MAX_PIXELS.toLocaleString('en-US')})`,
    );
  }
  const scale =
    Math.max(width, height) < UPSCALE_BELOW ? 2 : Math.min(1, Math.sqrt(OCR_MAX_PIXELS / pixels));
  try {
    let pipeline = sharp(image, { limitInputPixels: NOTE_IMAGE_MAX_PIXELS, failOn: 'error' })
      .autoOrient()
      .flatten({ background: '#ffffff' })
      .grayscale();
    if (scale !== 1) pipeline = pipeline.resize({ width: Math.max(1, Math.round(width * scale)) });
    // Tesseract decodes the PNG again at once: compressing it hard would only cost time.
    return await pipeline.png({ compressionLevel: 1 }).toBuffer();
  } catch {
    throw notAnImage();
  }
};

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

const require = createRequire(import.meta.url);

/** The packaged model of one language, from its `@tesseract.js-data/<code>` package. */
const modelFile = (language: string): string => {
  if (!/^[a-z_]+$/.test(language)) throw new Error(`OCR language "${language}" is not a code`);
  let packageJson: string;
  try {
    packageJson = require.resolve(`@tesseract.js-data/${language}/package.json`);
  } catch {
    throw new Error(`OCR language "${language}" needs @tesseract.js-data/${language} installed`);
  }
  const file = join(dirname(packageJson), MODEL_FOLDER, `${language}.traineddata.gz`);
  if (!existsSync(file)) throw new Error(`OCR language "${language}" has no model at ${file}`);
  return file;
};

/**
 * tesseract.js reads every language from one folder (`langPath`), and each language is its own
 * package. Its in-memory alternative, `{ code, data }` languages, fails in 7.0.0 (initialize takes
 * `data` for the name; naptha/tesseract.js#1052). So several languages get a temporary folder of
 * links to the packaged files, removed once the workers have loaded them: nothing is copied,
 * cached or downloaded.
 */
const modelFolder = (languages: readonly string[]): { path: string; remove: () => void } => {
  const files = languages.map(modelFile);
  const folders = new Set(files.map((file) => dirname(file)));
  if (folders.size === 1) return { path: [...folders][0]!, remove: () => {} };
  const path = mkdtempSync(join(tmpdir(), 'noted-ocr-'));
  const remove = () => rmSync(path, { recursive: true, force: true });
  try {
    for (const file of files) symlinkSync(file, join(path, basename(file)));
  } catch (error) {
    remove();
    throw error;
  }
  return { path, remove };
};

/**
 * Starts `size` tesseract.js workers (worker threads: recognition never blocks the event loop)
 * and a scheduler over them. A worker that fails to load its languages reports only to
 * `errorHandler` (its promise never settles), so that is what fails the start.
 */
const startScheduler = async (size: number, languages: readonly string[]): Promise<Scheduler> => {
  const { createScheduler, createWorker, OEM } = await import('tesseract.js');
  const folder = modelFolder(languages);
  let onError = (_error: unknown): void => {};
  const failed = new Promise<never>((_resolve, reject) => {
    onError = (error) => reject(new Error(`An OCR worker did not start: ${String(error)}`));
  });
  const workers: Worker[] = [];
  try {
    await Promise.race([
      Promise.all(
        Array.from({ length: size }, async () => {
          const worker = await createWorker([...languages], OEM.LSTM_ONLY, {
            langPath: folder.path,
            gzip: true,
            // Read from the packages each time: nothing is written next to the process.
            cacheMethod: 'none',
            // Without a handler, a failed job is also thrown on the main thread (uncaught).
            errorHandler: (error: unknown) => onError(error),
          });
          workers.push(worker);
          // Screenshots carry no resolution, or a screen's 72 dpi, which Tesseract replaces
          // with 70 and a warning on stderr; 300 is the resolution its models are made for.
          await worker.setParameters({ user_defined_dpi: '300' });
        }),
      ),
      failed,
    ]);
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw error;
  } finally {
    // From here on a failure belongs to the job that caused it, which rejects with it.
    onError = () => {};
    folder.remove();
  }
  const scheduler = createScheduler();
  for (const worker of workers) scheduler.addWorker(worker);
  return scheduler;
};

const closedError = () => new Error('The OCR pool is closed');

/**
 * Local OCR (English and Simplified Chinese by default) on a pool of `workers` Tesseract
 * workers, started with the first read (each holds about 100 MB with both languages) and
 * stopped by `close`. Reads beyond the pool's size wait their turn; an aborted read stops
 * waiting at once, though a recognition already running finishes in its worker.
 */
export const createOcr = (options: OcrOptions): Ocr => {
  const size = Math.max(1, Math.floor(options.workers));
  const idleMs = options.idleMs ?? OCR_IDLE_MS;
  const languages = options.languages ?? OCR_LANGUAGES;
  if (languages.length === 0) throw new Error('OCR needs at least one language');
  const slots = createSlots(size);
  let starting: Promise<Scheduler> | undefined;
  let closed = false;
  // Reads in a worker: `scheduler.terminate` settles none of them, so `close` rejects them.
  const running = new Set<(error: Error) => void>();
  // The workers hold about 100 MB each: a pool unused for a while is ended, and the next read
  // starts it again (a few seconds), so a process that reads an image now and then does not
  // keep them for good.
  let active = 0;
  let idle: NodeJS.Timeout | undefined;
  const endWhenIdle = () => {
    clearTimeout(idle);
    if (active > 0 || closed) return;
    idle = setTimeout(() => {
      if (active > 0 || closed || !starting) return;
      const ending = starting;
      starting = undefined;
      void ending.then((scheduler) => scheduler.terminate()).catch(() => undefined);
    }, idleMs);
    idle.unref();
  };

  const recognize = (scheduler: Scheduler, png: Buffer, signal?: AbortSignal) => {
    const job = scheduler.addJob('recognize', png);
    job.catch(() => {});
    return new Promise<Awaited<typeof job>>((resolve, reject) => {
      const stop = (error: unknown) => {
        running.delete(stop);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => stop(signal?.reason);
      running.add(stop);
      signal?.addEventListener('abort', onAbort, { once: true });
      job.then((result) => {
        running.delete(stop);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      }, stop);
    });
  };

  return {
    async read(image, signal) {
      if (closed) throw closedError();
      active += 1;
      clearTimeout(idle);
      let release: (() => void) | undefined;
      try {
        const png = await prepareImage(image);
        release = await slots.acquire(signal);
        // A failed start stays failed: a worker that could not load its languages cannot be
        // ended (tesseract.js never hands it over), so trying again would pile them up.
        starting ??= startScheduler(size, languages);
        const scheduler = await starting;
        if (closed) throw closedError();
        if (signal?.aborted) throw signal.reason;
        const { data } = await recognize(scheduler, png, signal);
        return {
          text: cleanOcrText(data.text),
          confidence: Math.max(0, Math.min(100, data.confidence)),
        };
      } finally {
        // An aborted recognition still occupies its worker until it ends; giving the slot back
        // now lets the next read queue in tesseract.js's scheduler behind it, a short wait.
        release?.();
        active -= 1;
        endWhenIdle();
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(idle);
      slots.close(closedError());
      for (const stop of [...running]) stop(closedError());
      const scheduler = await starting?.catch(() => undefined);
      await scheduler?.terminate();
    },
  };
};
