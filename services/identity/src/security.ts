import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The usual headers on every response: nosniff, no referrer, no framing (the third-party
 * cookie check lifts that for the web app's origins), and a policy that lets nothing load,
 * which each page replaces with its own. HSTS only when the issuer is https.
 */
export const securityHeaders = ({ https }: { https: boolean }): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https,
  });

/**
 * Answers a CORS preflight from any origin but the web app's with 403 and no CORS headers, so
 * a browser on another site never sends the request (oidc-provider would allow any origin's).
 */
export const refuseForeignPreflight =
  (webOrigins: readonly string[]): RequestHandler =>
  (req, res, next) => {
    const origin = req.header('origin');
    if (req.method !== 'OPTIONS' || !origin || webOrigins.includes(origin)) {
      next();
      return;
    }
    res.vary('Origin');
    res.status(403).json({
      error: 'invalid_request',
      error_description: `origin ${origin} may not call this provider`,
    });
  };
