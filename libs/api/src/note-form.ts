import * as z from 'zod';
import { NOTE_IMAGES_JSON, TAGS_JSON, anyOfKeys } from './rules.js';

/**
 * A form field holding JSON text of the form `pattern` states, parsed; the shape is checked
 * afterwards by NoteUpdate.
 */
const jsonText = (pattern: RegExp, message: string, description: string) =>
  z
    .string()
    .regex(pattern, message)
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Not valid JSON' });
        return z.NEVER;
      }
    })
    .meta({ description });

/** The text fields of a multipart `PUT /api/notes/{id}`; the body comes as the file part `note`. */
export const NoteUpdateFormFields = z.strictObject({
  title: z.string().max(500).optional(),
  tags: jsonText(
    TAGS_JSON,
    'A JSON array of at most 50 tags, as JSON.stringify writes it',
    'A JSON array of at most 50 tags, e.g. ["work","ideas"]',
  ).optional(),
  images: jsonText(
    NOTE_IMAGES_JSON,
    'A JSON array of addresses of images of the note',
    'A JSON array of the image URLs to keep (/api/notes/{id}/images/{name}); only URLs the ' +
      'note already has (removing images)',
  ).optional(),
});

/** The form as the document states it; once read, NoteUpdate checks it as a JSON update. */
export const NoteUpdateForm = NoteUpdateFormFields.extend({
  note: z
    .string()
    .meta({
      format: 'binary',
      description:
        'The note body as a file part (text/plain or text/markdown, at most 1 MB); bytes ' +
        'that are not UTF-8 answer 422 UNPROCESSABLE',
    })
    .optional(),
}).meta({
  id: 'NoteUpdateForm',
  description: 'At least one of title, tags, images or the file part note',
  anyOf: anyOfKeys({ title: 'present', note: 'present', tags: 'present', images: 'present' }),
});

/** The largest note file: 1 MB, so its text also fits the 1,000,000 characters of a body. */
export const NOTE_FILE_MAX_BYTES = 1_000_000;
