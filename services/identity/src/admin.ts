import express, { type Router } from 'express';
import { verifyCaller, type Logger } from '@noted/kit';

/** The one Noted service that deletes accounts here. */
const DELETER = 'users';

/**
 * The part of Keycloak's admin REST API Noted uses, at Keycloak's path
 * (`DELETE /admin/realms/{realm}/users/{id}`): the users service deletes a deleted account's
 * development account through it, in every topology, as it does a Keycloak user. Its bearer is
 * a caller token of the users service signed with the internal secret, not an OAuth token. The
 * gateway forwards only `/realms`, so this is reached on the provider's own port alone.
 */
export const adminRouter = (options: {
  realmPath: string;
  internalSecret: string;
  forgetAccount: (sub: string) => Promise<{ account: boolean; sessions: number }>;
  logger: Logger;
}): Router => {
  const router = express.Router();
  router.delete(`/admin${options.realmPath}/users/:id`, async (req, res) => {
    const token = /^Bearer (\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    let caller: string;
    try {
      caller = await verifyCaller(options.internalSecret, token);
    } catch {
      res.status(401).json({ error: 'HTTP 401 Unauthorized' });
      return;
    }
    if (caller !== DELETER) {
      res.status(403).json({ error: 'HTTP 403 Forbidden' });
      return;
    }
    const forgotten = await options.forgetAccount(req.params.id);
    options.logger.info(
      { account: forgotten.account, sessions: forgotten.sessions },
      'identity: a deleted account forgotten',
    );
    if (!forgotten.account) {
      res.status(404).json({ error: 'User not found' });
      return;
    }
    res.status(204).end();
  });
  return router;
};
