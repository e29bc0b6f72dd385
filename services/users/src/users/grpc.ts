import type { usersV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import { quotaConsume, quotaRelease } from '../quota/usecases.js';
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
    const { used, limit, period } = await quotaConsume(ctx, {
      userId: request.userId,
      feature: request.feature,
      amount: request.amount || 1,
    });
    return { used, limit: BigInt(limit), period };
  },
  releaseQuota: async (request) =>
    quotaRelease(ctx, {
      userId: request.userId,
      feature: request.feature,
      amount: request.amount || 1,
      period: request.period || undefined,
    }),
});
