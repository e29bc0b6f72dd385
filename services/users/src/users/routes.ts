import { AppError, type routes } from '@noted/api';
import { identityOf, type Handlers, type HandlerInput } from '@noted/kit';
import { presentUser } from './presenter.js';
import { usageOf } from '../quota/usecases.js';
import { userById, userBySub, userEnsure, type UsersContext } from './usecases.js';
import { userDelete } from '../deletion/usecases.js';

type UserRoutes = Pick<
  typeof routes,
  'userMe' | 'userFindBySub' | 'userBySub' | 'userCheck' | 'userCreate' | 'userUsage' | 'userDelete'
>;

/** The signed-in user's own record, by subject; nobody reads another user's record. */
const ownBySub = async (
  ctx: UsersContext,
  { params, req }: HandlerInput<UserRoutes['userFindBySub' | 'userBySub']>,
) => {
  if (params.sub !== identityOf(req).sub) throw new AppError('NOT_FOUND', 'There is no such user');
  return presentUser(await userBySub(ctx, params.sub));
};

export const userHandlers = (ctx: UsersContext): Handlers<UserRoutes> => ({
  userMe: async ({ userId }) => presentUser(await userById(ctx, userId)),
  userFindBySub: (input) => ownBySub(ctx, input),
  userBySub: (input) => ownBySub(ctx, input),
  // The gateway ensures the user on every request, so a signed-in caller exists by now.
  userCheck: async ({ userId }) => ({
    exists: true,
    user: presentUser(await userById(ctx, userId)),
  }),
  userCreate: async ({ req, body }) => {
    const identity = identityOf(req);
    if ((body.authId ?? body.sub) !== identity.sub) {
      throw new AppError('FORBIDDEN', 'A user can only be created for the signed-in subject');
    }
    const { user } = await userEnsure(ctx, {
      authId: identity.sub,
      email: identity.email || (body.email ?? ''),
      name: identity.name || (body.name ?? ''),
    });
    return presentUser(user);
  },
  userUsage: ({ userId }) => usageOf(ctx, userId),
  userDelete: ({ userId, body }) => userDelete(ctx, userId, body.confirm),
});
