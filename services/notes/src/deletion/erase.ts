import type { Knex } from 'knex';
import { deleteInBatches, forgetOutboxOf, startUserErasure } from '@noted/db';
import type { EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { userEvents } from '@noted/proto';
import type { ObjectStore } from '@noted/storage';

/**
 * Erases everything notes holds of a user, in batches: notes (their links, reviews and wiki
 * references go with them by cascade, the vocabulary by trigger), what is left of the
 * vocabulary, capture uploads, the outbox rows naming the user, then every object under the
 * user's prefix (`<userId>/...`: images, capture files, uploads). Idempotent.
 */
export const userErase = async (
  ctx: { knex: Knex; objects: ObjectStore },
  userId: string,
): Promise<Record<string, number>> => {
  const where = { user_id: userId };
  const notes = await deleteInBatches(ctx.knex, 'notes', where);
  for (const table of ['note_links', 'note_reviews', 'note_wiki_refs', 'note_words']) {
    await deleteInBatches(ctx.knex, table, where);
  }
  const uploads = await deleteInBatches(ctx.knex, 'capture_uploads', where);
  const outbox = await forgetOutboxOf(ctx.knex, userId);
  let objects = 0;
  for (const object of await ctx.objects.list(`${userId}/`)) {
    await ctx.objects.delete(object.key);
    objects += 1;
  }
  return { notes, uploads, outbox, objects };
};

/** `notes-user-deleted`: a deleted account's notes and files go. */
export const startUserDeletion = (options: {
  bus: EventBus;
  knex: Knex;
  objects: ObjectStore;
  logger: Logger;
}) =>
  startUserErasure({
    service: 'notes',
    bus: options.bus,
    logger: options.logger,
    event: userEvents.deleted,
    erase: ({ userId }) => userErase(options, userId),
  });
