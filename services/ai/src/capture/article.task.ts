/**
 * The article extractor that `article-reader.ts` runs in its sandbox (`@noted/sandbox`; and
 * `extractArticle` in the caller's process): parsing a large page takes seconds and hundreds of
 * MB, and in a process whose time and memory are capped that is never the service's.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

export interface Article {
  title: string;
  siteName?: string;
  byline?: string;
  excerpt?: string;
  markdown: string;
  /** Absolute http(s) URLs: the page's preview image, then the article's; at most 20. */
  images: string[];
  lang?: string;
  publishedTime?: string;
}

export interface ArticleTask {
  html: string;
  /** The page's address, absolute: links and images are made absolute against it. */
  url: string;
  /** Characters of Markdown kept. */
  maxChars: number;
  /** Past this `elementCount`, the page is not parsed: `too-complex`. None by default. */
  maxElements?: number;
}

export type ArticleTaskResult =
  { kind: 'article'; article: Article } | { kind: 'no-text' } | { kind: 'too-complex' };

const MAX_IMAGES = 20;

/** Elements that are never part of what a reader reads. */
const NEVER_READ = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'object',
  'embed',
  'button',
  'input',
  'select',
  'textarea',
  'canvas',
  'dialog',
] as const;

/**
 * A search box, a sign-up or a comment form is this short; a longer form is one of the pages
 * (ASP.NET's, for one) that wrap everything in a form, and only loses its controls.
 */
const FORM_TEXT_CHARS = 1000;

/** Links a reader can follow from a note; others (`javascript:`, `data:`, app schemes) go. */
const LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

/** Lazy-loading pages keep the real image address in one of these. */
const IMAGE_SOURCES = ['src', 'data-src', 'data-original', 'data-lazy-src'] as const;

/** The little of the DOM used here: linkedom's own types need the DOM lib the service lacks. */
interface Element {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  readonly textContent: string | null;
  readonly innerHTML: string;
}

interface ListItem {
  readonly parentNode: (Element & { nodeName: string; children: ArrayLike<unknown> }) | null;
  readonly nextSibling: unknown;
}

interface Document {
  readonly body: Element | null;
  /** Null for an empty string. */
  readonly documentElement: Element | null;
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
  cloneNode(deep: true): Document;
}

/**
 * linkedom builds a document only from explicit `<html>` and `<body>` tags, which HTML lets a
 * page leave out (and a fragment has neither): without them the text would be lost, so such a
 * page gets them.
 */
const withDocumentTags = (html: string): string => {
  if (/<html(?=[\s>])/i.test(html) && /<body(?=[\s>])/i.test(html)) return html;
  const htmlTag = /<html(?=[\s>])[^>]*>/i.exec(html)?.[0] ?? '<html>';
  const inner = html.replace(/<!doctype[^>]*>|<\/?(?:html|head|body)(?=[\s>])[^>]*>/gi, '');
  return `<!doctype html>${htmlTag}<head></head><body>${inner}</body></html>`;
};

const parseDocument = (html: string): Document =>
  parseHTML(withDocumentTags(html)).document as unknown as Document;

const absoluteUrl = (value: string | null, base: URL): URL | null => {
  if (value === null || value.trim() === '') return null;
  try {
    return new URL(value.trim(), base);
  } catch {
    return null;
  }
};

const isWebUrl = (url: URL | null): url is URL =>
  url !== null && (url.protocol === 'http:' || url.protocol === 'https:');

/**
 * Links and images made absolute against the page (and its `<base href>`), so they still work
 * in a note; links that go nowhere a reader could follow (`javascript:`, `data:`, app schemes)
 * lose their address and keep their text.
 */
const absolutize = (document: Document, base: URL): void => {
  for (const link of document.querySelectorAll('a[href]')) {
    const url = absoluteUrl(link.getAttribute('href'), base);
    if (url && LINK_PROTOCOLS.has(url.protocol)) link.setAttribute('href', url.href);
    else link.removeAttribute('href');
  }
  for (const image of document.querySelectorAll('img')) {
    const url = IMAGE_SOURCES.map((name) => absoluteUrl(image.getAttribute(name), base)).find(
      isWebUrl,
    );
    if (url) image.setAttribute('src', url.href);
    else image.removeAttribute('src');
    for (const name of [...IMAGE_SOURCES.slice(1), 'srcset', 'sizes']) image.removeAttribute(name);
  }
  for (const source of document.querySelectorAll('picture source')) source.remove();
};

const metaContent = (document: Document, ...keys: string[]): string | undefined => {
  for (const key of keys) {
    const element =
      document.querySelector(`meta[property="${key}"]`) ??
      document.querySelector(`meta[name="${key}"]`);
    const content = element?.getAttribute('content')?.replace(/\s+/g, ' ').trim();
    if (content) return content;
  }
  return undefined;
};

const nonEmpty = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.replace(/\s+/g, ' ').trim();
  return trimmed ? trimmed : undefined;
};

/** `url` with `)` and spaces escaped, so it cannot end a Markdown link early. */
const markdownUrl = (url: string): string =>
  url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** Article HTML (or element) to Markdown, and the images it shows, in order. */
const toMarkdown = (
  html: string | TurndownService.Node,
): { markdown: string; images: string[] } => {
  const images: string[] = [];
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
  });
  const neverRead = new Set<string>(NEVER_READ);
  turndown.remove((node) => neverRead.has(node.nodeName.toLowerCase()));
  turndown.addRule('webLinks', {
    filter: 'a',
    replacement: (content, node) => {
      const href = (node as unknown as Element).getAttribute('href');
      const text = content.trim();
      if (!href || text === '') return content;
      return `[${text}](${markdownUrl(href)})`;
    },
  });
  // turndown pads list markers to four columns (`-   item`); one space is what people write.
  turndown.addRule('tightListItems', {
    filter: 'li',
    replacement: (content, node) => {
      const item = node as unknown as ListItem;
      let marker = '- ';
      if (item.parentNode?.nodeName === 'OL') {
        const start = Number(item.parentNode.getAttribute('start') ?? '1');
        const index = Array.prototype.indexOf.call(item.parentNode.children, item);
        marker = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const paragraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (paragraph ? '\n' : '');
      const indented = body.replace(/\n/g, `\n${' '.repeat(marker.length)}`);
      return marker + indented + (item.nextSibling ? '\n' : '');
    },
  });
  turndown.addRule('webImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as Element;
      const src = element.getAttribute('src');
      if (!src) return '';
      images.push(src);
      const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').replace(/[[\]]/g, '');
      return `![${alt.trim()}](${markdownUrl(src)})`;
    },
  });
  return { markdown: turndown.turndown(html), images };
};

/** At most `maxChars`, cut at the last line break before it when there is one nearby. */
const cap = (markdown: string, maxChars: number): string => {
  if (markdown.length <= maxChars) return markdown;
  let end = maxChars;
  const lineBreak = markdown.lastIndexOf('\n', end);
  if (lineBreak > maxChars * 0.9) end = lineBreak;
  // Never between the halves of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(markdown.charAt(end - 1))) end -= 1;
  return markdown.slice(0, end).trimEnd();
};

/**
 * Readability's pick, or null when it finds none (or fails: it is heuristics over arbitrary
 * markup). It hands back its article element itself rather than HTML, which turndown would
 * only parse again. It rearranges the document, so it reads last.
 */
type ReadableDocument = ConstructorParameters<typeof Readability>[0];

const readArticle = (document: ReadableDocument) => {
  if (!document.documentElement) return null;
  try {
    return new Readability<TurndownService.Node>(document, {
      keepClasses: true,
      serializer: (element) => element as TurndownService.Node,
    }).parse();
  } catch {
    return null;
  }
};

/** Letters or digits a reader sees: images and link targets do not count. */
const hasText = (markdown: string): boolean =>
  /[\p{L}\p{N}]/u.test(markdown.replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\]\([^)]*\)/g, ']'));

/** The page parsed, without what is never read, its links and images absolute. */
const preparedDocument = (html: string, pageUrl: URL): Document => {
  const document = parseDocument(html);
  for (const element of document.querySelectorAll(NEVER_READ.join(','))) element.remove();
  for (const form of document.querySelectorAll('form')) {
    if ((form.textContent ?? '').trim().length < FORM_TEXT_CHARS) form.remove();
  }
  const baseHref = document.querySelector('base[href]')?.getAttribute('href') ?? null;
  const base = absoluteUrl(baseHref, pageUrl);
  absolutize(document, isWebUrl(base) ? base : pageUrl);
  return document;
};

const hostName = (url: URL) => url.hostname.replace(/^www\./, '');

/**
 * The page's elements, counted without parsing it (tags in scripts and comments count too).
 * Node ends a worker thread at its heap limit only if the allocation that crosses it fits in
 * the 16 MB it grants past the limit; a larger one aborts the whole process (nodejs/node#47224).
 * A 5 MB page of 330,000 elements did that, growing a WeakMap (linkedom keeps entries per
 * element) in a thread limited to 256 MB; pages of 100,000 ended at the limit as they should.
 */
export const elementCount = (html: string): number => {
  const tag = /<[a-z]/gi;
  let count = 0;
  while (tag.exec(html)) count += 1;
  return count;
};

/**
 * The article of a web page as Markdown: Mozilla's Readability picks the article (the body's
 * whole content when it finds none), turndown writes it as Markdown with ATX headings, fenced
 * code and `-` bullets; scripts, styles, frames and forms are dropped. A page without any text
 * reads as `no-text`, one with more than `maxElements` as `too-complex`.
 *
 * Synchronous, bounded by the caller's cap on the HTML (5 MB), and it blocks its thread for that
 * long, which is why the service runs it in a worker thread (`createArticleReader`). Measured on
 * this project's 2-core machine (Node 20, a shared, busy machine): a 250 KB news page with
 * scripts and navigation 75-150 ms; a 2 MB page 1.1-1.3 s when it is mostly markup around a
 * 400 KB article, 1.8-2.3 s when all of it is article (10,000 paragraphs); 5 MB of markup up to
 * 4 s, but 12-14 s for 5 MB of dense article (75,000 elements). Readability takes about half,
 * turndown a third.
 */
export const extractPage = (task: ArticleTask): ArticleTaskResult => {
  const { html, url, maxChars } = task;
  const pageUrl = new URL(url);
  if (task.maxElements !== undefined && elementCount(html) > task.maxElements) {
    return { kind: 'too-complex' };
  }
  const document = preparedDocument(html, pageUrl);
  const previewImage = absoluteUrl(
    metaContent(document, 'og:image', 'twitter:image') ?? null,
    pageUrl,
  );
  const page = {
    title:
      metaContent(document, 'og:title', 'twitter:title') ??
      // Not `document.title`: a page without a <head> has its <title> in the body.
      nonEmpty(document.querySelector('title')?.textContent) ??
      nonEmpty(document.querySelector('h1')?.textContent),
    siteName: metaContent(document, 'og:site_name', 'application-name'),
    lang: nonEmpty(document.documentElement?.getAttribute('lang')),
    publishedTime: metaContent(document, 'article:published_time', 'date'),
  };

  const article = readArticle(document as unknown as ReadableDocument);
  let converted = article?.content ? toMarkdown(article.content) : null;
  if (!converted || !hasText(converted.markdown)) {
    // Readability rearranged the first copy; the fallback is rare enough to parse again.
    const body = preparedDocument(html, pageUrl).body;
    converted = toMarkdown(body ? (body as unknown as TurndownService.Node) : '');
  }
  const markdown = cap(converted.markdown.replace(/\n{3,}/g, '\n\n').trim(), maxChars);
  if (!hasText(markdown)) return { kind: 'no-text' };

  const preview = isWebUrl(previewImage) ? [previewImage.href] : [];
  const result: Article = {
    title: nonEmpty(article?.title) ?? page.title ?? hostName(pageUrl),
    siteName: nonEmpty(article?.siteName) ?? page.siteName ?? hostName(pageUrl),
    markdown,
    images: [...new Set([...preview, ...converted.images])].slice(0, MAX_IMAGES),
  };
  const optional = {
    byline: nonEmpty(article?.byline),
    excerpt: nonEmpty(article?.excerpt),
    lang: nonEmpty(article?.lang) ?? page.lang,
    publishedTime: nonEmpty(article?.publishedTime) ?? page.publishedTime,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(result, { [key]: value });
  }
  return { kind: 'article', article: result };
};
