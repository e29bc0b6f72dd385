import * as z from 'zod';

const tag = z
  .string()
  .trim()
  .min(1, 'A tag cannot be empty')
  .max(64, 'A tag is at most 64 characters')
  .regex(/^[^\s#,]+$/, 'A tag has no spaces, commas or #');

export const Note = z
  .object({
    id: z.uuid(),
    title: z.string(),
    note: z.string().meta({ description: 'The note body, in Markdown' }),
    tags: z.array(z.string()),
    images: z.array(z.string()),
    isPinned: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof Note>;

export const NoteCreate = z
  .object({
    title: z.string().trim().max(500).default(''),
    note: z.string().max(1_000_000).default(''),
    tags: z
      .array(tag)
      .max(50)
      .default([])
      .transform((tags) => [...new Set(tags)]),
  })
  .refine((n) => n.title.length > 0 || n.note.trim().length > 0, {
    message: 'A note needs a title or a body',
    path: ['note'],
  })
  .meta({ id: 'NoteCreate' });
export type NoteCreate = z.input<typeof NoteCreate>;

export const NoteUpdate = z
  .object({
    title: z.string().trim().max(500).optional(),
    note: z.string().max(1_000_000).optional(),
    tags: z
      .array(tag)
      .max(50)
      .transform((tags) => [...new Set(tags)])
      .optional(),
  })
  .refine((n) => Object.values(n).some((v) => v !== undefined), {
    message: 'Give at least one of title, note or tags',
  })
  .meta({ id: 'NoteUpdate' });
export type NoteUpdate = z.input<typeof NoteUpdate>;

export const NoteListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(10),
  })
  .meta({ id: 'NoteListQuery' });
export interface NoteListQuery {
  page?: number;
  limit?: number;
}

export const NoteIdParams = z.object({ id: z.uuid({ message: 'Not a note id' }) });

export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  });

export const NotePage = page(Note).meta({ id: 'NotePage' });
export type NotePage = z.infer<typeof NotePage>;
