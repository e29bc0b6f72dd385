import { Router } from 'express';
import { AppError } from '@noted/api';
import { identityOf, userIdOf } from '@noted/kit';
import { presentUser } from './presenter.js';
import { userById, userBySub, type UsersContext } from './usecases.js';

/** `/user/*`: the signed-in user's own record. Nobody reads another user's record. */
export const usersRouter = (ctx: UsersContext): Router => {
  const router = Router();

  router.get('/user', async (req, res) => {
    res.json(presentUser(await userById(ctx, userIdOf(req))));
  });

  router.get(['/user/findBySub/:sub', '/user-by-sub/:sub'], async (req, res) => {
    if (req.params.sub !== identityOf(req).sub) {
      throw new AppError('NOT_FOUND', 'There is no such user');
    }
    res.json(presentUser(await userBySub(ctx, String(req.params.sub))));
  });

  return router;
};
