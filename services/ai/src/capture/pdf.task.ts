/**
 * The PDF text extractor that `pdf.ts` runs in its sandbox (`@noted/sandbox`): pdf.js parses
 * untrusted bytes here, in a process whose time and resident memory are capped, so a document
 * that takes too long or inflates a stream to gigabytes costs that process, not the service.
 */
import { getDocumentProxy } from 'unpdf';

export interface PdfTask {
  data: Uint8Array;
  maxPages: number;
  maxChars: number;
}

export type PdfTaskResult =
  | { kind: 'text'; pages: string[]; pageCount: number; truncated: boolean; title?: string }
  | { kind: 'not-a-pdf' }
  | { kind: 'encrypted' };

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
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A Buffer sent over the sandbox's channel arrives as one, and pdf.js takes only a plain view.
    const data = new Uint8Array(task.data.buffer, task.data.byteOffset, task.data.byteLength);
    pdf = await getDocumentProxy(data, {
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
