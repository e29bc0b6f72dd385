import { AppError, type routes } from '@noted/api';
import { identityOf, type Handlers, type HandlerInput } from '@noted/kit';
import { presentUser } from './presenter.js';
import { userById, userBySub, type UsersContext } from './usecases.js';

type UserRoutes = Pick<typeof routes, 'userMe' | 'userFindBySub' | 'userBySub'>;

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
});
