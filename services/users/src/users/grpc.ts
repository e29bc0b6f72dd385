import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { usersV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import { quotaConsume, quotaPending, quotaRelease, quotaSettle } from '../quota/usecases.js';
import { userMessage } from './presenter.js';
import { userById, userBySub, userEnsure, type UsersContext } from './usecases.js';

export const usersGrpc = (ctx: UsersContext): ServiceImpl<typeof usersV1.UsersService> => ({
  ensureUser: async (request) => {
    const { user, created } = await userEnsure(ctx, {
      authId: request.authId,
      email: request.email,
      name: request.name,
      issuedAt: Number(request.issuedAt),
    });
    return { user: userMessage(user), created };
  },
  getUserBySub: async (request) => ({ user: userMessage(await userBySub(ctx, request.authId)) }),
  getUser: async (request) => ({ user: userMessage(await userById(ctx, request.userId)) }),
  consumeQuota: async (request) => {
    const { used, limit, period, charged } = await quotaConsume(ctx, {
      userId: request.userId,
      feature: request.feature,
      amount: request.amount || 1,
      ...(request.refs.length > 0 ? { refs: request.refs } : {}),
    });
    return { used, limit: BigInt(limit), period, charged };
  },
  releaseQuota: async (request) =>
    quotaRelease(ctx, {
      userId: request.userId,
      feature: request.feature,
      amount: request.amount || 1,
      period: request.period || undefined,
      ...(request.refs.length > 0 ? { refs: request.refs } : {}),
      ...(request.refund ? { refund: true } : {}),
    }),
  settleQuota: async (request) =>
    quotaSettle(ctx, { userId: request.userId, feature: request.feature, refs: request.refs }),
  listPendingQuota: async (request) => ({
    pending: (
      await quotaPending(ctx, {
        feature: request.feature,
        olderThanSeconds: request.olderThanSeconds,
        limit: request.limit || 100,
      })
    ).map((row) => ({
      userId: row.user_id,
      ref: row.ref,
      period: row.period,
      reservedAt: timestampFromDate(row.reserved_at),
    })),
  }),
});
