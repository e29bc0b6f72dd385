import { AppError, MARKDOWN_MAX_DEPTH, markdownDepth } from '@noted/api';
import { SandboxError, taskModule, type Sandbox } from '@noted/sandbox';
import type { ExportImage, ExportNote } from './model.js';
import type { RenderTask } from './render/render.task.js';

/** How the dates and labels of a rendered note are written. */
export interface RenderOptions {
  /** `en`, `zh-CN`, …; by default the note's own language. */
  locale?: string;
  timeZone?: string;
}

/**
 * The PDF and PNG renderers (`render/pdf.ts`, `render/image.ts`), handed to the service so that
 * its routes can be tested with stand-ins and the renderers' code loads only when first used.
 */
export interface Renderers {
  pdf(note: ExportNote, images: readonly ExportImage[], options: RenderOptions): Promise<Buffer>;
  card(
    note: ExportNote,
    images: readonly ExportImage[],
    options: RenderOptions & { theme: 'light' | 'dark' },
  ): Promise<Buffer>;
}

const RENDER_TASK = taskModule(import.meta.url, 'render/render.task');
/** One note: the longest allowed, with its images, takes about a second. */
const RENDER_TIMEOUT_MS = 30_000;
/** A request waits this long at most for a process, then is refused BUSY (503, Retry-After). */
const RENDER_WAIT_MS = 20_000;

const tooComplex = () =>
  new AppError(
    'NOTE_TOO_COMPLEX',
    'This note is built in a way too costly to lay out as a PDF or image: export it as Markdown',
  );

/**
 * The shipped renderers (`render/pdf.ts`, `render/image.ts`), run in `sandbox`'s processes
 * (`render/render.task.ts`), where pdfkit, fontkit and 22 MB of fonts load on the first PDF or
 * PNG. A note nested deeper than a Markdown reader takes, or whose layout runs past its time or
 * memory, is refused with NOTE_TOO_COMPLEX; the service's process never lays out a note.
 */
export const sandboxRenderers = (sandbox: Sandbox): Renderers => {
  const render = async (fn: 'renderPdf' | 'renderCard', task: RenderTask): Promise<Buffer> => {
    if (markdownDepth(task.note.body) > MARKDOWN_MAX_DEPTH) throw tooComplex();
    try {
      const data = await sandbox.run<Uint8Array, RenderTask>({
        module: RENDER_TASK,
        fn,
        input: task,
        label: fn === 'renderPdf' ? 'pdf' : 'png',
        timeoutMs: RENDER_TIMEOUT_MS,
        maxWaitMs: RENDER_WAIT_MS,
      });
      return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    } catch (error) {
      if (error instanceof SandboxError && error.reason !== 'closed') throw tooComplex();
      throw error;
    }
  };
  return {
    pdf: (note, images, options) => render('renderPdf', { note, images, options }),
    card: (note, images, options) => render('renderCard', { note, images, options }),
  };
};
