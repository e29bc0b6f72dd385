import * as z from 'zod';
import { events, routesFor } from './contract.js';

/** The largest upload an import takes by default (the export service's EXPORT_IMPORT_MAX_BYTES). */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;

export const ImportForm = z
  .strictObject({
    file: z.string().meta({
      format: 'binary',
      description:
        'One Markdown file (.md, .markdown or .txt), or a .zip of Markdown files and the images ' +
        'they show. A zip that is a Notion "Markdown & CSV" export (page files named ' +
        '`Title <32 hex id>.md`, or the nested `Part-N.zip` of a large one) is read as Notion',
    }),
  })
  .meta({ id: 'ImportForm' });

/** How far an import has come; `done` counts created, updated and failed notes. */
export const ImportProgress = z
  .object({
    done: z.number().int(),
    total: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'ImportProgress' });
export type ImportProgress = z.infer<typeof ImportProgress>;

/** What an import did, once it has ended. */
export const ImportResult = z
  .object({
    /** Where the file came from: Markdown files, or a Notion export. */
    source: z.enum(['markdown', 'notion']),
    created: z.number().int().meta({ description: 'New notes' }),
    updated: z
      .number()
      .int()
      .meta({ description: 'Notes an earlier import of the same files made, updated in place' }),
    imagesUploaded: z.number().int(),
    failed: z
      .array(
        z.object({
          sourcePath: z.string(),
          code: z.string().meta({ description: 'The stable error code' }),
          image: z.string().optional().meta({ description: 'For an image: its path' }),
        }),
      )
      .meta({ description: 'Notes (or images of notes) the notes service refused' }),
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })).meta({
      description:
        'What of the file is not in Noted and why (NOT_MARKDOWN, DUPLICATE, NOTE_TOO_LONG, ' +
        'IMAGE_MISSING, NOT_AN_IMAGE, IMAGE_TOO_LARGE, TOO_MANY_IMAGES, IMAGES_TOO_LARGE, ' +
        'UNREFERENCED_IMAGE, UNSAFE_PATH, ENCRYPTED); the first 200',
    }),
    skippedTotal: z.number().int(),
    cancelled: z
      .boolean()
      .meta({ description: 'Stopped between two notes because the client went away' }),
  })
  .meta({ id: 'ImportResult' });
export type ImportResult = z.infer<typeof ImportResult>;

export const ImportEvent = z
  .discriminatedUnion('type', [
    ImportProgress.extend({ type: z.literal('progress') }),
    ImportResult.extend({ type: z.literal('done') }),
    z.object({
      type: z.literal('error'),
      error: z.object({ code: z.string(), message: z.string() }),
    }),
  ])
  .meta({ id: 'ImportEvent' });
export type ImportEvent = z.infer<typeof ImportEvent>;

const importApi = routesFor('export', 'import');

/** Importing notes (issue 20), served by the export service. */
export const importRoutes = {
  importFile: importApi.post('/export/import', {
    summary:
      'Import Markdown files (front matter and #tags read, [[links]] and relative links ' +
      'between the files resolved, local images uploaded) or a Notion export, as notes of ' +
      'yours; importing the same files again updates the notes it made instead of duplicating',
    form: ImportForm,
    answer: events(
      ImportEvent,
      'Once the file is read, planned and within the allowance: progress (at most every ' +
        '100 ms, and at the end), then done with the result, or error { code, message }',
    ),
    errors: [
      [
        403,
        'NOTES_LEFT_NOT_ENOUGH: the import makes more new notes than the month has left ' +
          '(details { needed, left }); nothing was written',
      ],
      [
        413,
        'PAYLOAD_TOO_LARGE: larger than the upload limit; IMPORT_TOO_LARGE: an archive holding ' +
          'too many entries or bytes, or inflating far past its size (details.reason)',
      ],
      [
        422,
        'By the name and content of the file: IMPORT_UNSUPPORTED (neither Markdown nor a ' +
          '.zip), ZIP_INVALID (a damaged zip), IMPORT_EMPTY (it holds no note), ' +
          'IMPORT_TOO_COMPLEX (reading it ran past its time or memory, details.reason)',
      ],
      [503, 'BUSY: imports are being read at capacity; try again after Retry-After'],
    ],
  }),
};
