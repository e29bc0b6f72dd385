/**
 * The second half of the marketing build, after rspack: writes the site's content files (page
 * payloads, post lists, navigation; once published only, once with drafts for preview), and
 * prerenders every page of every language to a whole HTML document that shows the page without
 * any script and hydrates with `site.js`. Also the blog's RSS feeds, the sitemap and robots.txt.
 *
 * Absolute addresses (canonical, Open Graph, feed, sitemap) depend on where Noted is deployed,
 * so they are written with ORIGIN_PLACEHOLDER, which the gateway replaces with its PUBLIC_URL;
 * the 404 document says which path was asked for in PATH_PLACEHOLDER.
 */
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import {
  defaultSiteLanguage,
  postListPath,
  siteLanguages,
  type PagePayload,
  type PostList,
  type SiteLanguage,
} from '../src/content/model.js';
import { translator } from '../src/i18n.js';
import type { SiteView } from '../src/pages/SitePage.js';
import { renderSitePage } from '../src/prerender.js';
import { serializeSiteData, siteDataId } from '../src/site/data.js';
import { buildSite, inlineSvg, readSources, type SiteContent } from './content.js';

export const ORIGIN_PLACEHOLDER = '__NOTED_ORIGIN__';
export const PATH_PLACEHOLDER = '__NOTED_PATH__';

const root = path.resolve(import.meta.dirname, '..');
const contentDir = path.join(root, 'content');
const dist = path.join(root, 'dist');
const siteDir = path.join(dist, 'site');
const pagesDir = path.join(dist, 'pages');
const contentOut = path.join(dist, 'content');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where a language's version of a path lives: the path itself for English, `?lang=zh` else. */
const urlOf = (pagePath: string, lang: SiteLanguage) =>
  `${ORIGIN_PLACEHOLDER}${pagePath}${lang === defaultSiteLanguage ? '' : `?lang=${lang}`}`;

const ogLocale: Record<SiteLanguage, string> = { en: 'en_US', zh: 'zh_CN' };

/** The build's own files the documents name: the site script, its stylesheet, the font. */
const readAssets = async () => {
  const names = await readdir(siteDir);
  const find = (pattern: RegExp) => {
    const name = names.find((candidate) => pattern.test(candidate));
    if (!name) throw new Error(`The site build has no file like ${pattern}`);
    return name;
  };
  const script = find(/^site\.[0-9a-f]{8}\.js$/);
  const style = find(/^site\.[0-9a-f]{8}\.css$/);
  const font = names.find((name) => /^inter-latin-wght-normal\.[0-9a-f]{8}\.woff2$/.test(name));
  const css = await readFile(path.join(siteDir, style), 'utf8');
  return { script, css: css.replace(/\/\*# sourceMappingURL=.*?\*\//g, '').trim(), font };
};

/** The shell's no-flash theme script, from its index.html: one source for both. */
const readThemeScript = async () => {
  const html = await readFile(path.join(root, '../shell/src/index.html'), 'utf8');
  const match = /<script>([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('The shell index.html has no inline theme script');
  return match[1];
};

interface DocumentParts {
  lang: SiteLanguage;
  path: string;
  view: SiteView;
  title: string;
  description: string;
  translations: SiteLanguage[];
  image?: { src: string; width: number; height: number };
  article?: { date?: string; author?: string; tags: string[] };
  indexable: boolean;
}

const documentOf = (
  parts: DocumentParts,
  site: SiteContent,
  assets: Awaited<ReturnType<typeof readAssets>>,
  themeScript: string,
) => {
  const t = translator(parts.lang);
  const navigation = site.navigation.get(parts.lang) ?? { guide: [], tags: [], pages: [] };
  const data = { lang: parts.lang, view: parts.view, navigation };
  const body = renderSitePage(data, parts.path);
  const title = parts.path === '/landing' ? parts.title : `${parts.title} · Noted`;
  const image = parts.image ?? { src: '/icon-512.png', width: 512, height: 512 };
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  const head = [
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', parts.description),
    parts.indexable ? '' : '<meta name="robots" content="noindex" />',
    parts.indexable ? `<link rel="canonical" href="${urlOf(parts.path, parts.lang)}" />` : '',
    ...(parts.indexable
      ? [
          ...parts.translations.map(
            (lang) =>
              `<link rel="alternate" hreflang="${lang}" href="${urlOf(parts.path, lang)}" />`,
          ),
          `<link rel="alternate" hreflang="x-default" href="${urlOf(parts.path, defaultSiteLanguage)}" />`,
        ]
      : []),
    meta('property', 'og:type', parts.article ? 'article' : 'website'),
    meta('property', 'og:site_name', 'Noted'),
    meta('property', 'og:title', parts.title),
    meta('property', 'og:description', parts.description),
    meta('property', 'og:url', urlOf(parts.path, parts.lang)),
    meta('property', 'og:locale', ogLocale[parts.lang]),
    meta('property', 'og:image', `${ORIGIN_PLACEHOLDER}${image.src}`),
    meta('property', 'og:image:width', String(image.width)),
    meta('property', 'og:image:height', String(image.height)),
    ...(parts.article?.date
      ? [meta('property', 'article:published_time', parts.article.date)]
      : []),
    ...(parts.article?.tags ?? []).map((tag) => meta('property', 'article:tag', tag)),
    meta('name', 'twitter:card', parts.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', parts.title),
    meta('name', 'twitter:description', parts.description),
    meta('name', 'twitter:image', `${ORIGIN_PLACEHOLDER}${image.src}`),
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(`Noted · ${t('blog.title')}`)}" href="${ORIGIN_PLACEHOLDER}/blog/feed.xml${parts.lang === defaultSiteLanguage ? '' : `?lang=${parts.lang}`}" />`,
    '<meta name="color-scheme" content="light dark" />',
    '<meta name="theme-color" content="#15803d" />',
    '<link rel="icon" href="/icon.svg" type="image/svg+xml" />',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png" />',
    '<link rel="manifest" href="/manifest.json" crossorigin="use-credentials" />',
    `<script>${themeScript}</script>`,
    assets.font
      ? `<link rel="preload" href="/site/${assets.font}" as="font" type="font/woff2" crossorigin />`
      : '',
    `<style>${assets.css}</style>`,
    `<script defer src="/site/${assets.script}"></script>`,
  ].filter(Boolean);
  return [
    '<!doctype html>',
    `<html lang="${parts.lang}">`,
    `<head>${head.join('\n')}</head>`,
    `<body><div id="root">${body}</div>`,
    `<script type="application/json" id="${siteDataId}">${serializeSiteData(data)}</script>`,
    '</body></html>',
    '',
  ].join('\n');
};

const pageDocument = (page: PagePayload, lang: SiteLanguage): DocumentParts => ({
  lang,
  path: page.path,
  view: { kind: 'page', page },
  title: page.title,
  description: page.description,
  translations: page.translations.length > 0 ? page.translations : [page.lang],
  ...(page.cover
    ? { image: { src: page.cover.src, width: page.cover.width, height: page.cover.height } }
    : {}),
  ...(page.kind === 'post'
    ? {
        article: {
          ...(page.date ? { date: page.date } : {}),
          ...(page.author ? { author: page.author } : {}),
          tags: page.tags,
        },
      }
    : {}),
  // A page shown in the language it fell back to is the other's duplicate: not indexed.
  indexable: page.lang === lang,
});

const listDocument = (list: PostList, lang: SiteLanguage): DocumentParts => {
  const t = translator(lang);
  return {
    lang,
    path: postListPath(list.page, list.tag),
    view: { kind: 'list', list },
    title: list.tag ? t('blog.tagged', { tag: list.tag }) : t('blog.title'),
    description: t('blog.lede'),
    translations: [...siteLanguages],
    indexable: true,
  };
};

const xmlEscape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** RSS 2.0 of a language's published posts, newest first. */
const feedOf = (site: SiteContent, lang: SiteLanguage) => {
  const t = translator(lang);
  const posts = (site.pages.get(lang) ?? [])
    .filter((page) => page.kind === 'post' && !page.draft)
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  const rfc822 = (date: string) => new Date(`${date}T09:00:00Z`).toUTCString();
  const self = `${ORIGIN_PLACEHOLDER}/blog/feed.xml${lang === defaultSiteLanguage ? '' : `?lang=${lang}`}`;
  const items = posts.map((post) =>
    [
      '<item>',
      `<title>${xmlEscape(post.title)}</title>`,
      `<link>${urlOf(post.path, post.lang)}</link>`,
      `<guid isPermaLink="true">${urlOf(post.path, post.lang)}</guid>`,
      `<description>${xmlEscape(post.description)}</description>`,
      post.date ? `<pubDate>${rfc822(post.date)}</pubDate>` : '',
      post.author ? `<dc:creator>${xmlEscape(post.author)}</dc:creator>` : '',
      ...post.tags.map((tag) => `<category>${xmlEscape(tag)}</category>`),
      `<content:encoded><![CDATA[${post.html.replace(/]]>/g, ']]]]><![CDATA[>').replace(/(src|href)="\//g, `$1="${ORIGIN_PLACEHOLDER}/`)}]]></content:encoded>`,
      '</item>',
    ]
      .filter(Boolean)
      .join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>Noted · ${xmlEscape(t('blog.title'))}</title>`,
    `<link>${urlOf('/blog', lang)}</link>`,
    `<description>${xmlEscape(t('blog.lede'))}</description>`,
    `<language>${lang === 'zh' ? 'zh-CN' : 'en'}</language>`,
    `<atom:link href="${self}" rel="self" type="application/rss+xml" />`,
    posts[0]?.date ? `<lastBuildDate>${rfc822(posts[0].date)}</lastBuildDate>` : '',
    ...items,
    '</channel>',
    '</rss>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
};

/** Every indexable document, each language's version named as an alternate of the others. */
const sitemapOf = (documents: Map<SiteLanguage, DocumentParts[]>) => {
  const entries = [...documents.values()]
    .flat()
    .filter((document) => document.indexable)
    .map((document) => {
      const alternates = document.translations
        .map(
          (lang) =>
            `<xhtml:link rel="alternate" hreflang="${lang}" href="${xmlEscape(urlOf(document.path, lang))}"/>`,
        )
        .join('');
      const lastmod =
        document.view.kind === 'page' && (document.view.page.updated ?? document.view.page.date);
      return `<url><loc>${xmlEscape(urlOf(document.path, document.lang))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates}</url>`;
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
};

/** The app and the API are not for crawlers; the site is. */
const robots = [
  'User-agent: *',
  'Allow: /',
  ...['/api/', '/ai/', '/user/', '/export/', '/public/', '/notes/', '/realms/', '/ws'].map(
    (prefix) => `Disallow: ${prefix}`,
  ),
  `Sitemap: ${ORIGIN_PLACEHOLDER}/sitemap.xml`,
  '',
].join('\n');

/** An SVG cover is drawn inline (so dark mode reaches it); a raster one is an image. */
const readImage = async (src: string) => {
  const file = path.join(contentDir, src.replace(/^\/content\//, ''));
  if (file.endsWith('.svg')) return inlineSvg(await readFile(file, 'utf8'), file);
  const { width, height } = await sharp(file).metadata();
  if (!width || !height) throw new Error(`${src}: the image has no size`);
  return { width, height };
};

const writeJson = async (dir: string, files: Map<string, unknown>) => {
  for (const [file, value] of files) {
    const target = path.join(dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, JSON.stringify(value));
  }
};

const main = async () => {
  const sources = await readSources(contentDir);
  const published = await buildSite(sources, { drafts: false, readImage });
  const preview = await buildSite(sources, { drafts: true, readImage });

  await rm(contentOut, { recursive: true, force: true });
  await rm(pagesDir, { recursive: true, force: true });
  for (const [mode, site] of [
    ['public', published],
    ['preview', preview],
  ] as const) {
    await writeJson(path.join(contentOut, mode), site.files);
    await cp(path.join(contentDir, 'images'), path.join(contentOut, mode, 'images'), {
      recursive: true,
    });
  }

  const assets = await readAssets();
  const themeScript = await readThemeScript();
  const documents = new Map<SiteLanguage, DocumentParts[]>();
  const index: Record<string, string[]> = {};
  for (const lang of siteLanguages) {
    const parts = [
      ...(published.pages.get(lang) ?? []).map((page) => pageDocument(page, lang)),
      ...(published.lists.get(lang) ?? []).map((list) => listDocument(list, lang)),
    ];
    documents.set(lang, parts);
    index[lang] = parts.map((document) => document.path).sort();
    for (const document of parts) {
      const target = path.join(pagesDir, lang, `${document.path}.html`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, documentOf(document, published, assets, themeScript));
    }
    const t = translator(lang);
    await writeFile(
      path.join(pagesDir, lang, '404.html'),
      documentOf(
        {
          lang,
          path: PATH_PLACEHOLDER,
          view: { kind: 'notFound', path: PATH_PLACEHOLDER },
          title: t('notFound.title', { path: PATH_PLACEHOLDER }),
          description: t('notFound.body'),
          translations: [lang],
          indexable: false,
        },
        published,
        assets,
        themeScript,
      ),
    );
    await writeFile(path.join(pagesDir, `feed.${lang}.xml`), feedOf(published, lang));
  }
  await writeFile(path.join(pagesDir, 'sitemap.xml'), sitemapOf(documents));
  await writeFile(path.join(pagesDir, 'robots.txt'), robots);
  await writeFile(path.join(pagesDir, 'index.json'), JSON.stringify({ documents: index }));
  const count = Object.values(index).reduce((sum, paths) => sum + paths.length, 0);
  process.stdout.write(
    `Site: ${sources.length} Markdown files, ${count} prerendered documents, ${published.files.size} content files (${preview.files.size} with drafts)\n`,
  );
};

await main();
