import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { GatewayConfig } from './config.js';
import { precompress, staticPrecompressed } from './precompressed.js';
import { notPagePaths, siteRouter } from './site.js';

/** What the shell reads at start: every URL it needs is given at runtime, none is built in. */
export const webConfig = (config: GatewayConfig) => ({
  apiBaseUrl: '',
  keycloak: {
    url: config.keycloak.url,
    realm: config.keycloak.realm,
    clientId: config.keycloak.clientId,
    identityProviders: config.identityProviders,
  },
  logoutUrl: config.logoutUrl,
  // The service worker fetches every remote named here ahead of use.
  remotes: {
    notes: config.notesRemoteUrl,
    billing: config.billingRemoteUrl,
    marketing: config.marketingRemoteUrl,
  },
});

/**
 * CSP hashes of the inline scripts of a page (the no-flash theme script); data blocks
 * (`type="application/json"`) are not scripts the browser runs and need none.
 */
export const inlineScriptHashes = (html: string): string[] =>
  [
    ...html.matchAll(
      /<script(?![^>]*\b(?:src=|type="application\/(?:ld\+)?json"))[^>]*>([\s\S]*?)<\/script>/g,
    ),
  ]
    .map((match) => match[1] ?? '')
    .filter((code) => code.trim().length > 0)
    .map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);

const hashedAsset = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg|webp)$/;

const setCacheHeaders = (res: express.Response, file: string) => {
  // One metrics label for every file of the frontends, whatever its name.
  res.locals.route = 'static';
  const name = path.basename(file);
  if (hashedAsset.test(name)) {
    res.setHeader('cache-control', 'public, max-age=31536000, immutable');
  } else {
    res.setHeader('cache-control', 'no-cache');
  }
};

/**
 * Serves the built shell at `/` (any unknown page path gets index.html: the shell routes it),
 * the notes and billing micro-frontends under `/remotes/notes/` and `/remotes/billing/`, and the
 * marketing site (its prerendered pages, content and remote; see site.ts).
 */
export const webRouter = (
  config: GatewayConfig,
): { router: Router; indexHtml?: string; siteHtml?: string } => {
  const router = express.Router();
  router.get('/config.json', (_req, res) => {
    res.setHeader('cache-control', 'no-cache');
    res.json(webConfig(config));
  });
  router.use('/remotes/notes', staticPrecompressed(config.webRoot.notes, setCacheHeaders));
  router.use('/remotes/billing', staticPrecompressed(config.webRoot.billing, setCacheHeaders));
  const site = config.webRoot.marketing
    ? siteRouter({
        root: config.webRoot.marketing,
        publicUrl: config.publicUrl,
        ...(config.contentPreviewToken ? { previewToken: config.contentPreviewToken } : {}),
        setCacheHeaders,
      })
    : undefined;
  if (site) router.use(site.router);
  const siteHtml = site?.documentHtml;

  const indexPath = path.join(config.webRoot.shell, 'index.html');
  if (!existsSync(indexPath)) return { router, ...(siteHtml ? { siteHtml } : {}) };
  const indexHtml = readFileSync(indexPath, 'utf8');
  const indexBody = precompress(indexHtml);
  router.use(staticPrecompressed(config.webRoot.shell, setCacheHeaders));
  router.get(/.*/, (req, res, next) => {
    if (!req.accepts('html') || path.extname(req.path) || notPagePaths.test(req.path)) {
      next();
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.type('html');
    indexBody.send(req, res);
  });
  return { router, indexHtml, ...(siteHtml ? { siteHtml } : {}) };
};
