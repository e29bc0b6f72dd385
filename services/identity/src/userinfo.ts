import express, { type RequestHandler, type Router } from 'express';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { accountClaims, type AccountStore } from './accounts.js';
import { API_AUDIENCE, ROUTES } from './constants.js';

interface UserinfoDeps {
  issuer: string;
  publicJwks: JSONWebKeySet;
  accounts: AccountStore;
  webOrigins: readonly string[];
}

/**
 * Keycloak's userinfo endpoint, which accepts the API access token. oidc-provider's own
 * userinfo refuses any access token with an audience, and all of ours have `noted-api`.
 */
export const userinfoRouter = ({
  issuer,
  publicJwks,
  accounts,
  webOrigins,
}: UserinfoDeps): Router => {
  const router = express.Router();
  const keys = createLocalJWKSet(publicJwks);

  const cors: RequestHandler = (req, res, next) => {
    const origin = req.header('origin');
    if (origin && webOrigins.includes(origin)) {
      res.set({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'Authorization',
        'access-control-expose-headers': 'WWW-Authenticate',
        'access-control-max-age': '3600',
      });
    }
    res.vary('Origin');
    next();
  };

  const refuse = (res: express.Response, description: string) => {
    res
      .status(401)
      .set('www-authenticate', `Bearer error="invalid_token", error_description="${description}"`)
      .json({ error: 'invalid_token', error_description: description });
  };

  const userinfo: RequestHandler = async (req, res) => {
    res.set('cache-control', 'no-store');
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)$/i.exec(req.header('authorization') ?? '');
    const token = match?.[1];
    if (!token) {
      res.status(401).set('www-authenticate', 'Bearer realm="noted"').json({
        error: 'invalid_request',
        error_description: 'no access token provided',
      });
      return;
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: API_AUDIENCE,
        algorithms: ['RS256'],
        requiredClaims: ['sub', 'exp'],
      });
      const account =
        payload.typ === 'Bearer' && payload.sub ? accounts.bySub(payload.sub) : undefined;
      if (!account) return refuse(res, 'access token is not valid for this provider');
      res.json(accountClaims(account));
    } catch {
      refuse(res, 'access token is invalid or expired');
    }
  };

  router.options(ROUTES.userinfo, cors, (_req, res) => {
    res.status(204).end();
  });
  router.get(ROUTES.userinfo, cors, userinfo);
  router.post(ROUTES.userinfo, cors, userinfo);
  return router;
};
