import * as z from 'zod';

/** A form field holding JSON text, parsed; the shape is checked afterwards by NoteUpdate. */
const jsonText = (description: string) =>
  z
    .string()
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
  title: z.string().optional(),
  tags: jsonText('A JSON array of tags, e.g. ["work","ideas"]').optional(),
  images: jsonText(
    'A JSON array of the image URLs to keep; only URLs the note already has (removing images)',
  ).optional(),
});

export const NoteUpdateForm = NoteUpdateFormFields.extend({
  note: z
    .string()
    .meta({
      format: 'binary',
      description:
        'The note body as a file part (text/plain or text/markdown, UTF-8, at most 1 MB)',
    })
    .optional(),
}).meta({ id: 'NoteUpdateForm' });

/** The largest note file: 1 MB, so its text also fits the 1,000,000 characters of a body. */
export const NOTE_FILE_MAX_BYTES = 1_000_000;
