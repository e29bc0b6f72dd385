/**
 * The PDF text extractor that `pdf.ts` runs in piscina worker threads: pdf.js parses untrusted
 * bytes here, where a document that takes too long or too much memory costs a thread, not the
 * service. Imports nothing from the workspace, so the thread starts the same from source and
 * from dist.
 */
import { getHeapStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { getDocumentProxy } from 'unpdf';

export interface PdfTask {
  data: Uint8Array;
  maxPages: number;
  maxChars: number;
  memoryMb: number;
}

export type PdfTaskResult =
  | { kind: 'text'; pages: string[]; pageCount: number; truncated: boolean; title?: string }
  | { kind: 'not-a-pdf' }
  | { kind: 'encrypted' };

/** The exit code of a worker that stopped a document for the memory its buffers took. */
export const EXIT_TOO_MUCH_MEMORY = 86;

const MB = 1024 * 1024;
/** Buffers at least this large, or this much allocated since the last look, trigger a look. */
const CHECK_EVERY_BYTES = MB;

let guardedLimit: number | null = null;

/**
 * `resourceLimits` bounds the JS heap only, and pdf.js holds decoded streams in Uint8Arrays
 * outside it: a 1.3 KB PDF whose content stream inflates to 300 MB took 5 s and 1 GB of RSS
 * in a worker limited to 64 MB. So in this thread each large Uint8Array allocation first looks
 * at the buffers already held (V8's external memory) and ends the thread past `memoryMb`. The
 * thread only ever runs pdf.js, and Node's own code keeps its original constructors.
 */
const guardBufferMemory = (memoryMb: number): void => {
  if (isMainThread) return;
  if (guardedLimit !== null) {
    guardedLimit = memoryMb * MB;
    return;
  }
  guardedLimit = memoryMb * MB;
  let sinceCheck = 0;
  globalThis.Uint8Array = new Proxy(Uint8Array, {
    construct(target, args: unknown[], newTarget) {
      const requested = typeof args[0] === 'number' ? args[0] : 0;
      sinceCheck += requested;
      if (requested >= CHECK_EVERY_BYTES || sinceCheck >= CHECK_EVERY_BYTES) {
        sinceCheck = 0;
        if (getHeapStatistics().external_memory + requested > (guardedLimit ?? Infinity)) {
          // Synchronous, inside pdf.js's decoding loop: ending the thread is the only way out.
          process.exit(EXIT_TOO_MUCH_MEMORY);
        }
      }
      return Reflect.construct(target, args, newTarget) as Uint8Array;
    },
  });
};

interface TextPiece {
  str?: string;
  hasEOL?: boolean;
}

/** A page's text items as lines: spaces collapsed, lines trimmed, at most one blank line. */
const pageText = (items: readonly TextPiece[]): string =>
  items
    .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const metadataTitle = (info: unknown, dcTitle: unknown): string | undefined => {
  const fromInfo =
    typeof info === 'object' && info !== null && 'Title' in info ? info.Title : undefined;
  for (const candidate of [fromInfo, dcTitle]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') {
      return candidate.replace(/\s+/g, ' ').trim();
    }
  }
  return undefined;
};

/**
 * Text page by page, until `maxPages` pages or `maxChars` characters (the page that crosses it
 * is cut there); a page pdf.js fails on counts as a page without text.
 */
export const extractPdf = async (task: PdfTask): Promise<PdfTaskResult> => {
  guardBufferMemory(task.memoryMb);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(task.data, {
      // Errors only: pdf.js warns about every oddity of real-world files on the console.
      verbosity: 0,
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      enableXfa: false,
    });
  } catch (error) {
    return { kind: (error as Error)?.name === 'PasswordException' ? 'encrypted' : 'not-a-pdf' };
  }
  try {
    const pageCount = pdf.numPages;
    const pages: string[] = [];
    let chars = 0;
    let truncated = pageCount > task.maxPages;
    for (let number = 1; number <= Math.min(pageCount, task.maxPages); number++) {
      let text = '';
      try {
        const page = await pdf.getPage(number);
        text = pageText((await page.getTextContent()).items as TextPiece[]);
        page.cleanup();
      } catch {
        text = '';
      }
      if (chars + text.length >= task.maxChars) {
        pages.push(text.slice(0, task.maxChars - chars));
        truncated ||= chars + text.length > task.maxChars || number < pageCount;
        break;
      }
      chars += text.length;
      pages.push(text);
    }
    const metadata = await pdf.getMetadata().catch(() => null);
    const title = metadataTitle(metadata?.info, metadata?.metadata?.get('dc:title'));
    return { kind: 'text', pages, pageCount, truncated, ...(title ? { title } : {}) };
  } finally {
    await pdf.destroy();
  }
};
