import type { RequestHandler, Response } from 'express';
import { AppError } from '@noted/api';
import { toAppError } from '@noted/kit';
import type { TokenVerifier, VerifiedUser } from './verifier.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `authenticate` from a verified access token. */
    user?: VerifiedUser;
  }
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/-]+=*)[ ]*$/i;

const unauthenticated = (res: Response, challenge: string, message: string) => {
  res
    .status(401)
    .set('www-authenticate', challenge)
    .json(new AppError('UNAUTHENTICATED', message).toBody());
};

/**
 * Lets a request through only with a valid `Authorization: Bearer <access token>`, and puts
 * who it is on `req.user`. Anything else is answered 401 with an RFC 6750 challenge.
 */
export const authenticate =
  (verifier: TokenVerifier): RequestHandler =>
  async (req, res, next) => {
    const token = BEARER.exec(req.header('authorization') ?? '')?.[1];
    if (!token) {
      unauthenticated(res, 'Bearer realm="noted"', 'Sign in first: this needs an access token');
      return;
    }
    try {
      req.user = await verifier.verify(token);
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code !== 'UNAUTHENTICATED') {
        next(appError);
        return;
      }
      unauthenticated(
        res,
        `Bearer realm="noted", error="invalid_token", error_description="${appError.message.replace(/["\\]/g, '')}"`,
        appError.message,
      );
      return;
    }
    next();
  };
