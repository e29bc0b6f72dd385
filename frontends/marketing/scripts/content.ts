/**
 * Reads the site's Markdown (`content/{lang}/**.md` with YAML front matter) and makes what the
 * browser fetches: page payloads, post lists by date and by tag, navigation files. Run at build
 * time; a file with a missing or malformed field fails the build, naming the file.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Element, Root as HastRoot, RootContent } from 'hast';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import YAML from 'yaml';
import * as z from 'zod';
import {
  contentFiles,
  defaultSiteLanguage,
  postListPath,
  postsPerPage,
  siteLanguages,
  type Cover,
  type Heading,
  type LandingData,
  type Navigation,
  type PageKind,
  type PagePayload,
  type PageSummary,
  type PostList,
  type SiteLanguage,
} from '../src/content/model.js';

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by hyphens');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');

const FrontMatter = z.object({
  title: z.string().trim().min(1),
  description: z.string().trim().min(1).max(200),
  date: z.union([isoDate, z.date().transform((d) => d.toISOString().slice(0, 10))]).optional(),
  updated: z.union([isoDate, z.date().transform((d) => d.toISOString().slice(0, 10))]).optional(),
  author: z.string().trim().min(1).optional(),
  tags: z.array(slug).default([]),
  draft: z.boolean().default(false),
  cover: z
    .string()
    .regex(/^\/content\/images\/[a-z0-9-]+\.(svg|png|jpg|webp)$/)
    .optional(),
  lang: z.enum(siteLanguages).optional(),
  order: z.number().int().positive().optional(),
});

const Landing = z.object({
  hero: z.object({
    eyebrow: z.string(),
    title: z.string(),
    lede: z.string(),
    primary: z.string(),
    secondary: z.string(),
  }),
  features: z.array(
    z.object({ id: slug, title: z.string(), body: z.string(), href: z.string().startsWith('/') }),
  ),
  steps: z.array(z.object({ title: z.string(), body: z.string() })),
  testimonials: z.array(z.object({ quote: z.string(), name: z.string(), role: z.string() })),
  pricingTitle: z.string(),
  pricingLede: z.string(),
  faqTitle: z.string(),
  ctaTitle: z.string(),
  ctaBody: z.string(),
});

export interface SourceFile {
  file: string;
  lang: SiteLanguage;
  path: string;
  kind: PageKind;
  meta: z.infer<typeof FrontMatter>;
  /** Everything of the front matter, for the landing page's parts. */
  data: Record<string, unknown>;
  body: string;
}

const markdown = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSlug);
const toHtml = unified().use(rehypeStringify);

const textOf = (node: RootContent | Element): string =>
  node.type === 'text'
    ? node.value
    : 'children' in node
      ? node.children.map((child) => textOf(child as RootContent)).join('')
      : '';

/** The page's body as HTML, its h2 and h3 (for a table of contents) and its sections by h2. */
export const renderMarkdown = (body: string) => {
  const tree = markdown.runSync(markdown.parse(body)) as HastRoot;
  const headings: Heading[] = [];
  for (const node of tree.children) {
    if (node.type === 'element' && /^h[23]$/.test(node.tagName)) {
      headings.push({
        id: String(node.properties.id ?? ''),
        text: textOf(node),
        depth: Number(node.tagName.slice(1)),
      });
    }
  }
  const sections: { id: string; title: string; html: string }[] = [];
  let current: { id: string; title: string; nodes: RootContent[] } | undefined;
  for (const node of tree.children) {
    if (node.type === 'element' && node.tagName === 'h2') {
      if (current) sections.push(finish(current));
      current = { id: String(node.properties.id ?? ''), title: textOf(node), nodes: [] };
    } else if (current) {
      current.nodes.push(node);
    }
  }
  if (current) sections.push(finish(current));
  return { html: toHtml.stringify(tree).trim(), headings, sections };
};

function finish(section: { id: string; title: string; nodes: RootContent[] }) {
  const html = toHtml.stringify({ type: 'root', children: section.nodes }).trim();
  return { id: section.id, title: section.title, html };
}

const splitFrontMatter = (text: string, file: string) => {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file}: it must start with YAML front matter between --- lines`);
  const data: unknown = YAML.parse(match[1] ?? '', { schema: 'core' });
  if (typeof data !== 'object' || data === null) {
    throw new Error(`${file}: the front matter must be a mapping`);
  }
  return { data: data as Record<string, unknown>, body: match[2] ?? '' };
};

const explain = (file: string, error: z.ZodError) =>
  new Error(
    `${file}: ${error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
  );

const routeOf = (relative: string): { path: string; kind: PageKind } => {
  const name = relative.replace(/\\/g, '/').replace(/\.md$/, '');
  if (name === 'landing') return { path: '/landing', kind: 'landing' };
  if (name === 'pricing') return { path: '/pricing', kind: 'pricing' };
  if (name === 'guide/index') return { path: '/guide', kind: 'guide' };
  if (name.startsWith('guide/')) return { path: `/${name}`, kind: 'guide' };
  if (name.startsWith('blog/')) return { path: `/${name}`, kind: 'post' };
  return { path: `/${name}`, kind: 'page' };
};

const walk = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : Promise.resolve(full.endsWith('.md') ? [full] : []);
    }),
  );
  return nested.flat().sort();
};

/** Every Markdown file of the content folder, checked. */
export const readSources = async (root: string): Promise<SourceFile[]> => {
  const sources: SourceFile[] = [];
  for (const lang of siteLanguages) {
    const dir = path.join(root, lang);
    for (const full of await walk(dir).catch(() => [])) {
      const file = path.relative(root, full);
      const { data, body } = splitFrontMatter(await readFile(full, 'utf8'), file);
      const parsed = FrontMatter.safeParse(data);
      if (!parsed.success) throw explain(file, parsed.error);
      if (parsed.data.lang && parsed.data.lang !== lang) {
        throw new Error(`${file}: lang ${parsed.data.lang} in a ${lang} folder`);
      }
      const route = routeOf(path.relative(dir, full));
      const name = route.path.split('/').pop() ?? '';
      if (!slug.safeParse(name).success) throw new Error(`${file}: file names are slugs`);
      if (route.kind === 'post' && !parsed.data.date) throw new Error(`${file}: posts need a date`);
      sources.push({ file, lang, ...route, meta: parsed.data, data, body });
    }
  }
  return sources;
};

/**
 * What the pages need of a cover file: the size it declares (SVG attributes, or the raster's
 * own) and, for an SVG, its markup to draw inline (`inlineSvg`).
 */
export type ImageReader = (src: string) => Promise<Omit<Cover, 'src'>>;

/** What an inline SVG may not hold: scripts, styles for the whole page, other documents. */
const unsafeSvg =
  /<(script|style|foreignObject|image|iframe|use)\b|\son[a-z]+\s*=|javascript:|href\s*=\s*["'](?!#)/i;

/**
 * A cover SVG as markup for the page itself rather than an `<img>`: so its colours, written as
 * `var(--cover-…, <light colour>)`, follow the page's theme class (marketing.css gives the dark
 * ones), which an image file cannot see. Its ids take the cover's name, since several covers
 * share a page; it is decoration, hidden from assistive technology. Throws, naming the file,
 * on anything a page should not run or load.
 */
export const inlineSvg = (text: string, file: string): Omit<Cover, 'src'> => {
  const markup = text
    .replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '')
    .replace(/>\s+</g, '><')
    .trim();
  const root = /^<svg\b([^>]*)>/.exec(markup);
  if (!root?.[1] || !markup.endsWith('</svg>')) throw new Error(`${file}: not an SVG document`);
  if (unsafeSvg.test(markup)) throw new Error(`${file}: a cover SVG holds only shapes and paint`);
  const width = Number(/\swidth="(\d+)"/.exec(root[1])?.[1]);
  const height = Number(/\sheight="(\d+)"/.exec(root[1])?.[1]);
  if (!width || !height) throw new Error(`${file}: the svg element needs a width and a height`);
  const prefix = `cover-${path.basename(file, '.svg')}-`;
  const svg = markup
    .replace(/\sid="([^"]+)"/g, ` id="${prefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`)
    .replace(/^<svg\b/, '<svg aria-hidden="true" focusable="false"');
  return { width, height, svg };
};

const summaryOf = async (source: SourceFile, readImage: ImageReader): Promise<PageSummary> => ({
  path: source.path,
  lang: source.lang,
  kind: source.kind,
  title: source.meta.title,
  description: source.meta.description,
  ...(source.meta.date ? { date: source.meta.date } : {}),
  ...(source.meta.updated ? { updated: source.meta.updated } : {}),
  ...(source.meta.author ? { author: source.meta.author } : {}),
  tags: source.meta.tags,
  ...(source.meta.cover
    ? { cover: { src: source.meta.cover, ...(await readImage(source.meta.cover)) } }
    : {}),
  ...(source.meta.order ? { order: source.meta.order } : {}),
  draft: source.meta.draft,
});

const landingOf = (source: SourceFile, faq: SourceFile | undefined): LandingData => {
  const parsed = Landing.safeParse(source.data);
  if (!parsed.success) throw explain(source.file, parsed.error);
  const questions = faq ? renderMarkdown(faq.body).sections : [];
  return {
    ...parsed.data,
    faq: questions.map(({ id, title, html }) => ({ id, question: title, html })),
  };
};

/** Everything one mode of the site serves: published only, or drafts too (preview). */
export interface SiteContent {
  /** JSON files by their path under `/content/`. */
  files: Map<string, unknown>;
  /** Every page, by language, with its payload: what is prerendered. */
  pages: Map<SiteLanguage, PagePayload[]>;
  lists: Map<SiteLanguage, PostList[]>;
  navigation: Map<SiteLanguage, Navigation>;
}

const byDateDescending = (a: PageSummary, b: PageSummary) =>
  (b.date ?? '').localeCompare(a.date ?? '') || a.path.localeCompare(b.path);

const pageLists = (posts: PageSummary[], tag?: string): PostList[] => {
  const pages = Math.max(1, Math.ceil(posts.length / postsPerPage));
  return Array.from({ length: pages }, (_, index) => ({
    items: posts.slice(index * postsPerPage, (index + 1) * postsPerPage),
    page: index + 1,
    pages,
    total: posts.length,
    ...(tag ? { tag } : {}),
  }));
};

export const buildSite = async (
  sources: SourceFile[],
  { drafts, readImage }: { drafts: boolean; readImage: ImageReader },
): Promise<SiteContent> => {
  const shown = sources.filter((source) => drafts || !source.meta.draft);
  const find = (lang: SiteLanguage, pagePath: string) =>
    shown.find((source) => source.lang === lang && source.path === pagePath);
  const paths = [...new Set(shown.map((source) => source.path))];
  const files = new Map<string, unknown>();
  const pages = new Map<SiteLanguage, PagePayload[]>();
  const lists = new Map<SiteLanguage, PostList[]>();
  const navigation = new Map<SiteLanguage, Navigation>();

  for (const lang of siteLanguages) {
    // A page not written in this language is shown in the default one (then in any other).
    const pick = (pagePath: string) =>
      find(lang, pagePath) ??
      find(defaultSiteLanguage, pagePath) ??
      siteLanguages.map((other) => find(other, pagePath)).find(Boolean);
    const chosen = paths.map(pick).filter((source): source is SourceFile => source !== undefined);
    const summaries = new Map<string, PageSummary>();
    for (const source of chosen) summaries.set(source.path, await summaryOf(source, readImage));

    const chapters = chosen
      .filter((source) => source.kind === 'guide' && source.path !== '/guide')
      .sort((a, b) => (a.meta.order ?? 99) - (b.meta.order ?? 99) || a.path.localeCompare(b.path));
    const posts = chosen
      .filter((source) => source.kind === 'post')
      .map((source) => summaries.get(source.path) as PageSummary)
      .sort(byDateDescending);

    const payloads: PagePayload[] = [];
    for (const source of chosen) {
      const { html, headings } = renderMarkdown(source.body);
      const at = chapters.indexOf(source);
      const link = (chapter: SourceFile | undefined) =>
        chapter ? { path: chapter.path, title: chapter.meta.title } : undefined;
      const previous = at > 0 ? link(chapters[at - 1]) : undefined;
      const next =
        source.path === '/guide' ? link(chapters[0]) : at >= 0 ? link(chapters[at + 1]) : undefined;
      const payload: PagePayload = {
        ...(summaries.get(source.path) as PageSummary),
        html,
        headings,
        translations: siteLanguages.filter((other) => find(other, source.path) !== undefined),
        ...(previous ? { previous } : {}),
        ...(next ? { next } : {}),
        ...(source.kind === 'landing'
          ? { landing: landingOf(source, find(source.lang, '/faq') ?? pick('/faq')) }
          : {}),
      };
      payloads.push(payload);
      files.set(contentFiles.page(lang, source.path), payload);
    }
    pages.set(lang, payloads);

    const tags = [...new Set(posts.flatMap((post) => post.tags))].sort();
    const allLists = [
      ...pageLists(posts),
      ...tags.flatMap((tag) =>
        pageLists(
          posts.filter((post) => post.tags.includes(tag)),
          tag,
        ),
      ),
    ];
    for (const list of allLists) files.set(contentFiles.posts(lang, list.page, list.tag), list);
    lists.set(lang, allLists);

    const nav: Navigation = {
      guide: chapters.map((chapter) => ({ path: chapter.path, title: chapter.meta.title })),
      tags: tags.map((tag) => ({
        tag,
        count: posts.filter((post) => post.tags.includes(tag)).length,
      })),
      pages: chosen
        .filter((source) => source.kind === 'page')
        .map((source) => ({ path: source.path, title: source.meta.title }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    };
    files.set(contentFiles.navigation(lang), nav);
    navigation.set(lang, nav);
  }
  return { files, pages, lists, navigation };
};

/** Every path a language of the site has a document for: its pages and its post lists. */
export const documentPaths = (site: SiteContent, lang: SiteLanguage): string[] => [
  ...(site.pages.get(lang) ?? []).map((page) => page.path),
  ...(site.lists.get(lang) ?? []).map((list) => postListPath(list.page, list.tag)),
];
