/**
 * The content of the site as the browser receives it: page payloads, content queries (posts by
 * date or tag, paged) and navigation files, all written at build time from the Markdown under
 * `content/` and served by the gateway under `/content/`.
 */

export const siteLanguages = ['en', 'zh'] as const;
export type SiteLanguage = (typeof siteLanguages)[number];
export const defaultSiteLanguage: SiteLanguage = 'en';

export const isSiteLanguage = (value: unknown): value is SiteLanguage =>
  typeof value === 'string' && (siteLanguages as readonly string[]).includes(value);

/** What a page is, which decides how it is laid out ('pricing': the plans, at /pricing). */
export type PageKind = 'landing' | 'guide' | 'post' | 'page' | 'pricing';

/** The posts of the blog per page of its list. */
export const postsPerPage = 6;

export interface Cover {
  /** The file (also the page's Open Graph image). */
  src: string;
  width: number;
  height: number;
  /** An SVG cover's markup, drawn inline so that it takes the theme's colours. */
  svg?: string;
}

/** What lists and links need of a page. */
export interface PageSummary {
  /** The site path: '/blog/offline-first-notes', '/guide/capture', '/about'. */
  path: string;
  /** The language its text is in (the asked-for one, or English it fell back to). */
  lang: SiteLanguage;
  kind: PageKind;
  title: string;
  description: string;
  /** ISO dates (YYYY-MM-DD) of posts. */
  date?: string;
  updated?: string;
  author?: string;
  tags: string[];
  cover?: Cover;
  /** Guide chapters: their place in the guide. */
  order?: number;
  /** Only ever served in preview mode. */
  draft: boolean;
}

export interface Heading {
  id: string;
  text: string;
  depth: number;
}

export interface LandingFeature {
  id: string;
  title: string;
  body: string;
  href: string;
}

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

/** The landing page's parts, from its front matter, and the FAQ from `faq.md`. */
export interface LandingData {
  hero: { eyebrow: string; title: string; lede: string; primary: string; secondary: string };
  features: LandingFeature[];
  steps: { title: string; body: string }[];
  testimonials: Testimonial[];
  pricingTitle: string;
  pricingLede: string;
  faqTitle: string;
  faq: { id: string; question: string; html: string }[];
  ctaTitle: string;
  ctaBody: string;
}

/** One page: its summary, its body as HTML (rendered from Markdown at build time) and its parts. */
export interface PagePayload extends PageSummary {
  html: string;
  headings: Heading[];
  /** The languages this page is written in. */
  translations: SiteLanguage[];
  /** Guide chapters: the ones before and after. */
  previous?: { path: string; title: string };
  next?: { path: string; title: string };
  landing?: LandingData;
}

/** A content query's answer: one page of posts, newest first. */
export interface PostList {
  items: PageSummary[];
  page: number;
  pages: number;
  total: number;
  tag?: string;
}

/** What the site's navigation shows: the guide's chapters, the blog's tags, the footer pages. */
export interface Navigation {
  guide: { path: string; title: string }[];
  tags: { tag: string; count: number }[];
  pages: { path: string; title: string }[];
}

/** Where each file of the content lives under `/content/`. */
export const contentFiles = {
  page: (lang: SiteLanguage, path: string) => `pages/${lang}${path}.json`,
  posts: (lang: SiteLanguage, page: number, tag?: string) =>
    tag ? `posts/${lang}/tag/${tag}/${page}.json` : `posts/${lang}/${page}.json`,
  navigation: (lang: SiteLanguage) => `navigation/${lang}.json`,
};

/** The site's routes that list posts, as paths the gateway can serve prerendered. */
export const postListPath = (page: number, tag?: string) => {
  const base = tag ? `/blog/tag/${tag}` : '/blog';
  return page > 1 ? `${base}/page/${page}` : base;
};

/** What a list path asks for: `/blog`, `/blog/page/2`, `/blog/tag/ai`, `/blog/tag/ai/page/2`. */
export const parsePostListPath = (path: string): { page: number; tag?: string } | undefined => {
  const match = /^\/blog(?:\/tag\/([a-z0-9-]+))?(?:\/page\/([1-9][0-9]*))?\/?$/.exec(path);
  if (!match) return undefined;
  const page = match[2] ? Number(match[2]) : 1;
  return match[1] ? { page, tag: match[1] } : { page };
};
