import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AppError } from '@noted/api';
import { enqueueEvent, outboxEvent } from '@noted/db';
import { userEventHeaders, userEvents } from '@noted/proto';
import type { UsersContext } from '../users/usecases.js';
import type { UserRow } from '../users/repository.js';
import { deletionRepository, TOMBSTONE_DAYS } from './repository.js';

const normalizedEmail = (email: string) => email.trim().toLowerCase();

/**
 * Deletes the account: in one transaction the tombstone (from now on its tokens are refused)
 * and `user.deleted` in the outbox, which every service consumes to erase the user's data.
 * `confirm` must be the account's email, a guard against a stray request.
 */
export const userDelete = async (
  ctx: UsersContext,
  userId: string,
  confirm: string,
): Promise<{ userId: string; deletedAt: string }> =>
  ctx.unitOfWork(async (trx) => {
    const user = await trx<UserRow>('users').where({ id: userId }).forUpdate().first();
    if (!user) throw new AppError('NOT_FOUND', 'There is no such user');
    if (normalizedEmail(confirm) !== normalizedEmail(user.email)) {
      throw new AppError(
        'CONFIRMATION_MISMATCH',
        "To delete the account, confirm with the account's email address",
      );
    }
    const tombstone = await deletionRepository.tombstone(trx, {
      user_id: user.id,
      auth_id: user.auth_id,
    });
    if (!tombstone) throw new AppError('ACCOUNT_DELETED', 'This account was deleted');
    await enqueueEvent(
      trx,
      outboxEvent(
        userEvents.deleted,
        (eventId) => ({
          eventId,
          occurredAt: timestampFromDate(tombstone.deleted_at),
          userId: user.id,
          authId: user.auth_id,
        }),
        userEventHeaders(user.id),
      ),
    );
    return { userId: user.id, deletedAt: tombstone.deleted_at.toISOString() };
  });

/** Erases the user's own rows, keeping the tombstone and the `user.deleted` event itself. */
export const userErase = (ctx: Pick<UsersContext, 'knex'>, userId: string) =>
  deletionRepository.eraseUser(ctx.knex, userId, [userEvents.deleted.subject]);

/** Tombstones older than any token still valid go. */
export const tombstonesPrune = (ctx: Pick<UsersContext, 'knex'>, now = new Date()) =>
  deletionRepository.pruneTombstones(
    ctx.knex,
    new Date(now.getTime() - TOMBSTONE_DAYS * 24 * 3600_000),
  );
