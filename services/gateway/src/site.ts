import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { AppError, isAppPage } from '@noted/api';
import { precompress, staticPrecompressed } from './precompressed.js';

/** What the marketing build writes the site's absolute addresses and a 404's path as. */
export const ORIGIN_PLACEHOLDER = '__NOTED_ORIGIN__';
export const PATH_PLACEHOLDER = '__NOTED_PATH__';
/** The header a preview token travels in, and in which the answer says whether it was taken. */
export const PREVIEW_HEADER = 'x-noted-preview';

const languages = ['en', 'zh'] as const;
type Language = (typeof languages)[number];
const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/** The paths other than pages: the API, the services' own, the identity provider's, files. */
export const notPagePaths = /^\/(api|user|ai|export|public|ws|realms|remotes|content|site)(\/|$)/;

export interface SiteConfig {
  /** The marketing build: `dist/` with `remote/`, `site/`, `pages/` and `content/`. */
  root: string;
  publicUrl: string;
  /** The token that shows drafts (CONTENT_PREVIEW_TOKEN); without one there is no preview. */
  previewToken?: string;
  setCacheHeaders: (res: Response, file: string) => void;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The language of a document: `?lang=` first, then the `locale` cookie the app and the site keep,
 * then the browser's Accept-Language, then English.
 */
export const languageOf = (req: Request): Language => {
  const asked = req.query.lang;
  if (isLanguage(asked)) return asked;
  const cookie = /(?:^|;\s*)locale=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  if (isLanguage(cookie)) return cookie;
  const accepted = req.acceptsLanguages(...languages);
  return isLanguage(accepted) ? accepted : 'en';
};

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The marketing site: its prerendered documents at their paths (in the reader's language), the
 * content files the pages fetch (`/content/…`, drafts too with the preview token), its script
 * (`/site/…`), the marketing remote (`/remotes/marketing/…`), the sitemap, robots.txt and the
 * blog's RSS feeds. Absent (no build), none of it is served.
 */
export const siteRouter = (config: SiteConfig): { router: Router; documentHtml?: string } => {
  const router = express.Router();
  const pagesDir = path.join(config.root, 'pages');
  const indexFile = path.join(pagesDir, 'index.json');
  if (!existsSync(indexFile)) return { router };

  const origin = config.publicUrl.replace(/\/$/, '');
  const read = (file: string) =>
    readFileSync(path.join(pagesDir, file), 'utf8').replaceAll(ORIGIN_PLACEHOLDER, origin);
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as {
    documents: Record<Language, string[]>;
  };
  const documents = new Map(languages.map((lang) => [lang, new Set(index.documents[lang] ?? [])]));
  // Compressed once, on first request: the documents are few and rarely all asked for.
  const compressed = new Map<string, ReturnType<typeof precompress>>();
  const sendFile = (req: Request, res: Response, file: string, type: string) => {
    let body = compressed.get(file);
    if (!body) {
      body = precompress(read(file));
      compressed.set(file, body);
    }
    res.locals.route = 'site';
    res.setHeader('cache-control', 'no-cache');
    res.type(type);
    body.send(req, res);
  };
  const notFoundDocuments = new Map(languages.map((lang) => [lang, read(`${lang}/404.html`)]));

  router.use(
    '/remotes/marketing',
    staticPrecompressed(path.join(config.root, 'remote'), config.setCacheHeaders),
  );
  router.use('/site', staticPrecompressed(path.join(config.root, 'site'), config.setCacheHeaders));

  // Content: published files, or (with the preview token) the build that has drafts too.
  const publicContent = staticPrecompressed(
    path.join(config.root, 'content', 'public'),
    config.setCacheHeaders,
  );
  const previewContent = staticPrecompressed(
    path.join(config.root, 'content', 'preview'),
    config.setCacheHeaders,
  );
  router.use('/content', (req, res, next) => {
    const token = req.header(PREVIEW_HEADER);
    const previewing =
      token !== undefined &&
      config.previewToken !== undefined &&
      sameToken(token, config.previewToken);
    if (token !== undefined) {
      res.setHeader(PREVIEW_HEADER, previewing ? 'on' : 'refused');
      res.vary(PREVIEW_HEADER);
    }
    (previewing ? previewContent : publicContent)(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      // A content file that does not exist is JSON 404, never the app's HTML.
      next(new AppError('NOT_FOUND', `No content at ${req.originalUrl.split('?')[0] ?? ''}`));
    });
  });

  router.get('/sitemap.xml', (req, res) => sendFile(req, res, 'sitemap.xml', 'application/xml'));
  router.get('/robots.txt', (req, res) => sendFile(req, res, 'robots.txt', 'text/plain'));
  router.get('/blog/feed.xml', (req, res) => {
    const lang = isLanguage(req.query.lang) ? req.query.lang : 'en';
    sendFile(req, res, `feed.${lang}.xml`, 'application/rss+xml');
  });

  router.get(/.*/, (req, res, next) => {
    if (!req.accepts('html') || path.extname(req.path)) {
      next();
      return;
    }
    const pagePath = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const lang = languageOf(req);
    const known = documents.get(lang)?.has(pagePath) ?? false;
    // The app's pages are the shell's; any other page path is the site's, found or a real 404.
    if (!known && (isAppPage(pagePath) || notPagePaths.test(pagePath))) {
      next();
      return;
    }
    // The language is the reader's: a cache keeps one copy per language choice.
    res.vary('Accept-Language');
    res.vary('Cookie');
    if (known) {
      sendFile(req, res, `${lang}${pagePath}.html`, 'html');
      return;
    }
    let shown = pagePath;
    try {
      shown = decodeURIComponent(pagePath);
    } catch {
      // Left as sent: the page says the path it was given.
    }
    res.locals.route = 'site';
    res.status(404).setHeader('cache-control', 'no-cache');
    res.type('html');
    res.send(notFoundDocuments.get(lang)?.replaceAll(PATH_PLACEHOLDER, escapeHtml(shown)));
  });

  // Every document has the same inline script (the theme's), so one of them gives its CSP hash.
  return { router, documentHtml: notFoundDocuments.get('en') };
};
