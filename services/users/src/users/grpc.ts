import type { usersV1 } from '@noted/proto';
import type { ServiceImpl } from '@noted/grpc';
import { userMessage } from './presenter.js';
import { userBySub, userEnsure, type UsersContext } from './usecases.js';

export const usersGrpc = (ctx: UsersContext): ServiceImpl<typeof usersV1.UsersService> => ({
  ensureUser: async (request) => {
    const { user, created } = await userEnsure(ctx, request);
    return { user: userMessage(user), created };
  },
  getUserBySub: async (request) => ({ user: userMessage(await userBySub(ctx, request.authId)) }),
});
