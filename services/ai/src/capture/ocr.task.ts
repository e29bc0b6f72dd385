/**
 * Local OCR as `ocr.ts` runs it in its sandbox (`@noted/sandbox`): the image is decoded (sharp)
 * and read (tesseract.js, whose worker thread and WebAssembly heap live in this process) where
 * its time and memory are capped, so an image that costs too much costs this process, not the
 * service. The workers start with the first image and stay until the sandbox ends the process.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type sharpModule from 'sharp';
import type { Scheduler, Worker } from 'tesseract.js';
import { AppError, NOTE_IMAGE_MAX_PIXELS } from '@noted/api';

export interface OcrTask {
  image: Uint8Array;
  /** Tesseract language codes, each installed as `@tesseract.js-data/<code>`. */
  languages: readonly string[];
}

export interface OcrTaskResult {
  /** As Tesseract gives it (`cleanOcrText` makes it readable). */
  text: string;
  confidence: number;
}

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
const OCR_MAX_PIXELS = 8_000_000;
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

let starting: { languages: string; scheduler: Promise<Scheduler> } | undefined;

/** The image's text: decoded, prepared and read by this process's Tesseract worker. */
export const recognizeImage = async (task: OcrTask): Promise<OcrTaskResult> => {
  const png = await prepareImage(task.image);
  const languages = task.languages.join('+');
  if (starting && starting.languages !== languages) {
    throw new Error(`This process reads ${starting.languages}, not ${languages}`);
  }
  // A failed start stays failed: a worker that could not load its languages cannot be ended
  // (tesseract.js never hands it over); the process is ended instead.
  starting ??= { languages, scheduler: startScheduler(1, task.languages) };
  const scheduler = await starting.scheduler;
  const { data } = await scheduler.addJob('recognize', png);
  return { text: data.text, confidence: data.confidence };
};
