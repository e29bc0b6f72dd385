import * as z from 'zod';
import { ok, routesFor } from './contract.js';
import { NoteIdParams } from './notes.js';

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

/** Most notes one graph answer holds; the rest are counted in `total`. */
export const NOTE_GRAPH_MAX_NODES = 2000;

export const NoteGraphQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(NOTE_GRAPH_MAX_NODES).default(500) })
  .meta({ id: 'NoteGraphQuery' });
export interface NoteGraphQuery {
  limit?: number;
}

export const NoteGraphNode = z
  .object({
    id: z.uuid(),
    title: z.string(),
    tags: z.array(z.string()),
    isPinned: z.boolean(),
    degree: z.number().int().meta({ description: 'Links in and out, over all the notes' }),
  })
  .meta({ id: 'NoteGraphNode' });
export type NoteGraphNode = z.infer<typeof NoteGraphNode>;

export const NoteGraphEdge = z
  .object({ source: z.uuid(), target: z.uuid(), kind: NoteLinkKind })
  .meta({ id: 'NoteGraphEdge' });
export type NoteGraphEdge = z.infer<typeof NoteGraphEdge>;

export const NoteGraph = z
  .object({
    nodes: z.array(NoteGraphNode).meta({
      description: 'Linked notes first (most links first), then the most recently updated',
    }),
    edges: z.array(NoteGraphEdge).meta({ description: 'The links between the nodes given' }),
    total: z.number().int().meta({ description: 'All the notes of the user' }),
  })
  .meta({ id: 'NoteGraph' });
export type NoteGraph = z.infer<typeof NoteGraph>;

const linksApi = routesFor('notes', 'links');

const linkAction = (path: string, summary: string) =>
  linksApi.post(path, {
    summary,
    body: NoteLinkAction,
    answer: ok(NoteLinks, 'The links of noteId'),
    errors: [404],
  });

/** The routes of links between notes. */
export const linkRoutes = {
  noteAddLink: linkAction(
    '/api/note/addlink',
    'Link one note to another of the same user (adding it twice changes nothing)',
  ),
  noteRemoveLink: linkAction(
    '/api/note/removelink',
    'Remove a manual link; a [[wiki link]] stays while the body names the target',
  ),
  noteLinks: linksApi.get('/api/notes/:id/links', {
    summary: 'The notes a note links to and the notes that link to it',
    params: NoteIdParams,
    answer: ok(NoteLinks, 'The links'),
    errors: [404],
  }),
  noteGraph: linksApi.get('/api/notes/graph', {
    summary: 'The notes of the user and the links between them, for the mind map',
    query: NoteGraphQuery,
    answer: ok(NoteGraph, 'The graph'),
  }),
};
