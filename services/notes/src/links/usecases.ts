import type { Knex } from 'knex';
import type { NoteGraphQuery, NoteIdParams, NoteLinkAction } from '@noted/api';
import { AppError, type NoteGraph, type NoteLinks, type Parsed } from '@noted/api';
import { noteOutbox } from '../notes/events.js';
import { notesRepository } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { linksRepository } from './repository.js';

const notFound = () => new AppError('NOT_FOUND', 'There is no such note');

export const noteLinksGet = async (
  ctx: NotesContext,
  userId: string,
  params: Parsed<typeof NoteIdParams>,
): Promise<NoteLinks> => {
  const { id } = params;
  if (!(await notesRepository.exists(ctx.knex, userId, id))) throw notFound();
  return linksOf(ctx.knex, userId, id);
};

const linksOf = async (db: Knex, userId: string, noteId: string): Promise<NoteLinks> => {
  const [outgoing, backlinks] = await Promise.all([
    linksRepository.outgoing(db, userId, noteId),
    linksRepository.backlinks(db, userId, noteId),
  ]);
  const present = ({ id, title, kind }: (typeof outgoing)[number]) => ({ id, title, kind });
  return { outgoing: outgoing.map(present), backlinks: backlinks.map(present) };
};

/**
 * Changes the manual link between two notes of the user and announces the source note when
 * the link changed. Both notes are held (FOR SHARE) so neither can be deleted meanwhile.
 */
const changeLink = async (
  ctx: NotesContext,
  userId: string,
  link: Parsed<typeof NoteLinkAction>,
  change: (trx: Knex.Transaction, link: NoteLinkAction) => Promise<number>,
): Promise<NoteLinks> => {
  await ctx.unitOfWork(async (trx) => {
    const notes = await notesRepository.hold(trx, userId, [link.noteId, link.targetId]);
    const source = notes.find((row) => row.id === link.noteId);
    if (!source || notes.length !== 2) throw notFound();
    if ((await change(trx, link)) > 0) await noteOutbox.updated(trx, source);
  });
  return linksOf(ctx.knex, userId, link.noteId);
};

/** Links one note of the user to another; linking twice changes nothing. */
export const noteLinkAdd = (
  ctx: NotesContext,
  userId: string,
  link: Parsed<typeof NoteLinkAction>,
) =>
  changeLink(ctx, userId, link, (trx, { noteId, targetId }) =>
    linksRepository.insert(trx, userId, noteId, [targetId], 'manual'),
  );

/** Removes the manual link; a wiki link stays as long as the body names the target. */
export const noteLinkRemove = (
  ctx: NotesContext,
  userId: string,
  link: Parsed<typeof NoteLinkAction>,
) =>
  changeLink(ctx, userId, link, (trx, { noteId, targetId }) =>
    linksRepository.remove(trx, userId, noteId, targetId, 'manual'),
  );

/** The user's notes and the links between them, bounded for drawing (the mind map). */
export const noteGraph = async (
  ctx: NotesContext,
  userId: string,
  query: Parsed<typeof NoteGraphQuery>,
): Promise<NoteGraph> => {
  const { limit } = query;
  const [nodes, total] = await Promise.all([
    linksRepository.graphNodes(ctx.knex, userId, limit),
    notesRepository.count(ctx.knex, userId),
  ]);
  const edges = await linksRepository.graphEdges(
    ctx.knex,
    userId,
    nodes.map((node) => node.id),
  );
  return {
    nodes: nodes.map((node) => ({
      id: node.id,
      title: node.title,
      tags: node.tags,
      isPinned: node.is_pinned,
      degree: Number(node.degree ?? 0),
    })),
    edges: edges.map((edge) => ({
      source: edge.source_id,
      target: edge.target_id,
      kind: edge.kind,
    })),
    total,
  };
};
