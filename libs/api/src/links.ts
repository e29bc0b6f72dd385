import * as z from 'zod';

export const NoteLinkAction = z
  .object({
    noteId: z.uuid({ message: 'Not a note id' }).meta({ description: 'The note the link leaves' }),
    targetId: z
      .uuid({ message: 'Not a note id' })
      .meta({ description: 'The note the link points to' }),
  })
  .refine((link) => link.noteId !== link.targetId, {
    message: 'A note cannot link to itself',
    path: ['targetId'],
  })
  .meta({ id: 'NoteLinkAction' });
export type NoteLinkAction = z.infer<typeof NoteLinkAction>;

export const NoteLinkKind = z
  .enum(['manual', 'wiki'])
  .meta({ description: 'manual: added with addlink; wiki: a [[Title]] in the body' });
export type NoteLinkKind = z.infer<typeof NoteLinkKind>;

export const LinkedNote = z
  .object({ id: z.uuid(), title: z.string(), kind: NoteLinkKind })
  .meta({ id: 'LinkedNote' });
export type LinkedNote = z.infer<typeof LinkedNote>;

export const NoteLinks = z
  .object({
    outgoing: z.array(LinkedNote).meta({ description: 'Notes this note links to' }),
    backlinks: z.array(LinkedNote).meta({ description: 'Notes that link to this note' }),
  })
  .meta({ id: 'NoteLinks' });
export type NoteLinks = z.infer<typeof NoteLinks>;
