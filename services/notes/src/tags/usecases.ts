import type { TagParams, TagRename } from '@noted/api';
import { AppError, type TagCount, type TagList, type Parsed } from '@noted/api';
import { noteOutbox } from '../notes/events.js';
import { notesRepository } from '../notes/repository.js';
import type { NotesContext } from '../context.js';
import { tagsRepository } from './repository.js';

/** Tags a list answers at most: the most used ones. */
const TAGS_AT_MOST = 1000;

/** The user's tags, most used first, with how many notes carry each and how many tags there are. */
export const tagList = async (ctx: NotesContext, userId: string): Promise<TagList> => {
  const rows = await tagsRepository.counts(ctx.knex, userId, TAGS_AT_MOST);
  return {
    items: rows.map((row) => ({ tag: row.tag, count: Number(row.count) })),
    total: Number(rows[0]?.tags ?? 0),
    page: 1,
    limit: TAGS_AT_MOST,
  };
};

/**
 * Rewrites the tags of every note of the user that has `tag`, announcing each changed note.
 * Runs in one transaction: either every note changes or none does.
 */
const retag = async (
  ctx: NotesContext,
  userId: string,
  tag: string,
  rewrite: (tags: string[]) => string[],
): Promise<number> => {
  return ctx.unitOfWork(async (trx) => {
    const rows = await tagsRepository.lockTagged(trx, userId, tag);
    for (const row of rows) {
      const updated = await notesRepository.update(trx, userId, row.id, {
        tags: rewrite(row.tags),
      });
      if (updated) await noteOutbox.updated(trx, updated);
    }
    return rows.length;
  });
};

export const tagRename = async (
  ctx: NotesContext,
  userId: string,
  params: Parsed<typeof TagParams>,
  input: Parsed<typeof TagRename>,
): Promise<TagCount> => {
  const { tag } = params;
  const { name } = input;
  // A tag renamed to its own name is already so: nothing is written, as a PUT sent again.
  const changed =
    name === tag
      ? await tagsRepository.countTagged(ctx.knex, userId, tag)
      : await retag(ctx, userId, tag, (tags) => [
          ...new Set(tags.map((t) => (t === tag ? name : t))),
        ]);
  if (changed === 0) throw new AppError('NOT_FOUND', 'No note has this tag');
  const count = (await tagList(ctx, userId)).items.find((item) => item.tag === name)?.count ?? 0;
  return { tag: name, count };
};

export const tagDelete = async (
  ctx: NotesContext,
  userId: string,
  params: Parsed<typeof TagParams>,
): Promise<void> => {
  const { tag } = params;
  const changed = await retag(ctx, userId, tag, (tags) => tags.filter((t) => t !== tag));
  if (changed === 0) throw new AppError('NOT_FOUND', 'No note has this tag');
};
