/**
 * The PDF and PNG renderers as `renderers.ts` runs them in its sandbox (`@noted/sandbox`): a
 * note's Markdown is laid out and its images decoded here, in a process whose time and memory
 * are capped, with pdfkit, fontkit and the fonts loaded once per process.
 */
import type { ExportImage, ExportNote } from '../model.js';
import type { RenderOptions } from '../renderers.js';
import { renderNoteCard } from './image.js';
import { renderNotePdf } from './pdf.js';

export interface RenderTask {
  note: ExportNote;
  /** Their bytes arrive as Uint8Arrays (the channel does not keep Buffer). */
  images: readonly ExportImage[];
  options: RenderOptions & { theme?: 'light' | 'dark' };
}

const buffers = (images: readonly ExportImage[]): ExportImage[] =>
  images.map((image) => ({
    ...image,
    bytes: Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength),
  }));

export const renderPdf = ({ note, images, options }: RenderTask): Promise<Buffer> =>
  renderNotePdf(note, buffers(images), options);

export const renderCard = ({ note, images, options }: RenderTask): Promise<Buffer> =>
  renderNoteCard(note, buffers(images), { ...options, theme: options.theme ?? 'light' });
