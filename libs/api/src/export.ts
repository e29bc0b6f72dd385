import * as z from 'zod';
import { file, routesFor } from './contract.js';

const noteId = z.uuid({ message: 'Not a note id' }).meta({ description: 'The note' });

export const ExportNoteQuery = z.object({ id: noteId });

export const ExportNoteImageQuery = z.object({
  id: noteId,
  theme: z
    .enum(['light', 'dark'])
    .default('light')
    .meta({ description: 'The card on a light or a dark ground' }),
});
export type ExportNoteImageQuery = z.infer<typeof ExportNoteImageQuery>;

/** How a note's images go with its Markdown. */
export const MarkdownImages = z.enum(['link', 'bundle']);
export type MarkdownImages = z.infer<typeof MarkdownImages>;

export const ExportMarkdownQuery = z.object({
  id: noteId,
  images: MarkdownImages.default('link').meta({
    description:
      'link: one .md file, images as absolute links to Noted (they need the owner signed in); ' +
      'bundle: a .zip of the .md file and its images in images/, referred to by relative paths',
  }),
});
export type ExportMarkdownQuery = z.infer<typeof ExportMarkdownQuery>;

/** Counted before the first byte of an export of everything, so a client can show progress. */
export const NOTES_TOTAL_HEADER = 'x-noted-notes-total';

const attachment = z.string().meta({
  description: 'attachment; filename="…" (ASCII); filename*=UTF-8\'\'… (the name from the title)',
});

const fileHeaders = z.object({ 'Content-Disposition': attachment });

const exportApi = routesFor('export', 'export');

/** The export routes (spec section 7), served by the export service. */
export const exportRoutes = {
  noteExportPdf: exportApi.get('/export/note', {
    summary: 'One of your notes as an A4 PDF: title, tags, dates, the Markdown set, its images',
    query: ExportNoteQuery,
    answer: file('application/pdf', 'The PDF', fileHeaders),
    errors: [
      [403, 'PDF export is not in your plan (code PLAN_REQUIRED)'],
      404,
      [422, 'NOTE_TOO_COMPLEX: the note is too costly to lay out (export it as Markdown)'],
      [503, 'BUSY: PDFs and images are being rendered at capacity; try again after Retry-After'],
    ],
  }),
  noteExportImage: exportApi.get('/export/note/image', {
    summary: 'One of your notes as a shareable PNG card, light or dark',
    query: ExportNoteImageQuery,
    answer: file('image/png', 'The PNG', fileHeaders),
    errors: [
      [403, 'Image export is not in your plan (code PLAN_REQUIRED)'],
      404,
      [422, 'NOTE_TOO_COMPLEX: the note is too costly to lay out (export it as Markdown)'],
      [503, 'BUSY: PDFs and images are being rendered at capacity; try again after Retry-After'],
    ],
  }),
  noteExportMarkdown: exportApi.get('/export/note/markdown', {
    summary:
      'One of your notes as Markdown with YAML front matter (title, tags, created, updated, ' +
      'source), its images linked or bundled in a .zip',
    query: ExportMarkdownQuery,
    answer: file(
      ['text/markdown', 'application/zip'],
      'The .md file (images=link) or a .zip of it and its images (images=bundle)',
      fileHeaders,
    ),
    errors: [404],
  }),
  exportAll: exportApi.get('/export/all', {
    summary:
      'All your notes as one .zip, streamed: a Markdown file per note, images/, and manifest.json',
    answer: file(
      'application/zip',
      'The zip, written as the notes are read. A failure after the first byte cuts the ' +
        'connection off (the zip then has no central directory and no tool opens it); it is ' +
        'never ended as if complete. HEAD answers the headers alone, with the count',
      fileHeaders.extend({
        'X-Noted-Notes-Total': z
          .string()
          .regex(/^\d+$/)
          .meta({
            description:
              'How many notes the zip will hold, counted before the first byte: progress is the ' +
              'Markdown entries received (countExportedNotes in @noted/api) of this many',
          }),
      }),
    ),
  }),
  /** Everything Noted holds about the user (spec section 7). */
  userData: exportApi.get('/user/data', {
    summary:
      'Everything Noted holds about you as one .zip, streamed: your account, plan, usage, AI ' +
      'settings, Notion connection (without its token), chats, notes with their images, and ' +
      'the files notes were captured from',
    answer: file(
      'application/zip',
      'The zip, written as it is read (README.txt lists its parts; the notes are under notes/ ' +
        'as GET /export/all writes them). A failure after the first byte cuts the connection ' +
        'off. HEAD answers the headers alone, with the count',
      fileHeaders.extend({
        'X-Noted-Notes-Total': z
          .string()
          .regex(/^\d+$/)
          .meta({ description: 'How many notes the zip will hold, under notes/' }),
      }),
    ),
  }),
};

const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_SIZE = 30;
const names = new TextDecoder();

/**
 * Progress of an export of everything as it downloads: fed the bytes as they arrive, answers
 * how many notes (Markdown files at the top of the zip) have begun so far. The export writes
 * each entry's sizes in its local header, so this walks from header to header, reading each
 * name and skipping the data, and stops at the central directory.
 */
export const countExportedNotes = (
  /** Where the notes are in the zip: '' for an export of everything, 'notes/' in one's data. */
  folder = '',
) => {
  let carry = new Uint8Array(0);
  let skip = 0;
  let notes = 0;
  let done = false;
  return (chunk: Uint8Array): number => {
    if (done) return notes;
    if (skip >= chunk.length) {
      skip -= chunk.length;
      return notes;
    }
    const rest = chunk.subarray(skip);
    skip = 0;
    const data = new Uint8Array(carry.length + rest.length);
    data.set(carry);
    data.set(rest, carry.length);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    while (data.length - at >= LOCAL_HEADER_SIZE) {
      if (view.getUint32(at, true) !== LOCAL_HEADER) {
        done = true;
        break;
      }
      const compressed = view.getUint32(at + 18, true);
      const nameLength = view.getUint16(at + 26, true);
      const extraLength = view.getUint16(at + 28, true);
      if (data.length - at < LOCAL_HEADER_SIZE + nameLength) break;
      const name = names.decode(
        data.subarray(at + LOCAL_HEADER_SIZE, at + LOCAL_HEADER_SIZE + nameLength),
      );
      if (name.startsWith(folder) && name.endsWith('.md') && !name.includes('/', folder.length)) {
        notes += 1;
      }
      const next = at + LOCAL_HEADER_SIZE + nameLength + extraLength + compressed;
      if (next > data.length) {
        skip = next - data.length;
        at = data.length;
        break;
      }
      at = next;
    }
    carry = done ? new Uint8Array(0) : data.slice(at);
    return notes;
  };
};
