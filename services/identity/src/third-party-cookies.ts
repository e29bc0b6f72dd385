import express, { type Router } from 'express';

/**
 * Keycloak's third-party cookie check (`/protocol/openid-connect/3p-cookies/step1.html`),
 * which keycloak-js loads in a hidden iframe before a silent session check: step 1 sets a
 * cookie, step 2 tells the app whether it came back. Without it keycloak-js would wait for a
 * message that never comes. Scripts are files, not inline, so no CSP exception is needed.
 */
const base = '/protocol/openid-connect/3p-cookies';

const page = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cookie check</title></head>` +
  `<body><script src="${script}"></script></body></html>`;

const step1 = [
  "document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=supported; Max-Age=60; SameSite=None; Secure';",
  "document.cookie = 'KEYCLOAK_3P_COOKIE=supported; Max-Age=60';",
  "window.location.replace('step2.html');",
].join('\n');

const step2 = [
  'var supported = /(^|; )KEYCLOAK_3P_COOKIE(_SAMESITE)?=supported/.test(document.cookie);',
  "document.cookie = 'KEYCLOAK_3P_COOKIE_SAMESITE=; Max-Age=0; SameSite=None; Secure';",
  "document.cookie = 'KEYCLOAK_3P_COOKIE=; Max-Age=0';",
  "window.parent.postMessage(supported ? 'supported' : 'unsupported', '*');",
].join('\n');

export const thirdPartyCookiesRouter = ({ webOrigins }: { webOrigins: string[] }): Router => {
  const router = express.Router();
  const frameAncestors = `frame-ancestors 'self' ${webOrigins.join(' ')}`;
  const send =
    (type: 'html' | 'js', body: string) => (_req: express.Request, res: express.Response) => {
      res.setHeader('cache-control', 'no-store');
      // keycloak-js frames these pages: frame-ancestors below says by whom.
      res.removeHeader('x-frame-options');
      res.setHeader(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; ${frameAncestors}`,
      );
      res.type(type).send(body);
    };
  router.get(`${base}/step1.html`, send('html', page('step1.js')));
  router.get(`${base}/step1.js`, send('js', step1));
  router.get(`${base}/step2.html`, send('html', page('step2.js')));
  router.get(`${base}/step2.js`, send('js', step2));
  return router;
};
