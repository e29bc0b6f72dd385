import type { ExportImage, ExportNote } from './model.js';

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

/** The shipped renderers, imported on first use (pdfkit, fontkit and 22 MB of fonts). */
export const loadRenderers = async (): Promise<Renderers> => {
  const [{ renderNotePdf }, { renderNoteCard }] = await Promise.all([
    import('./render/pdf.js'),
    import('./render/image.js'),
  ]);
  return { pdf: renderNotePdf, card: renderNoteCard };
};
