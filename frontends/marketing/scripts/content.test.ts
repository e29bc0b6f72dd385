import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentFiles, postListPath, type PagePayload, type PostList } from '../src/content/model';
import {
  buildSite,
  documentPaths,
  inlineSvg,
  readSources,
  type SiteContent,
  type SourceFile,
} from './content';

const contentDir = path.resolve(import.meta.dirname, '../content');
const readImage = async () => ({ width: 1200, height: 630 });

/** The app's own pages, which the site may link to. */
const appPaths = ['/', '/feedback', '/todos', '/review', '/mindlink', '/chat', '/summaries'];

describe('the site content as written', () => {
  let sources: SourceFile[];
  let published: SiteContent;
  let preview: SiteContent;

  beforeAll(async () => {
    sources = await readSources(contentDir);
    published = await buildSite(sources, { drafts: false, readImage });
    preview = await buildSite(sources, { drafts: true, readImage });
  });

  it('has the landing page, the FAQ, the guide in order, three posts or more, in both languages', () => {
    const en = published.pages.get('en') ?? [];
    const landing = en.find((page) => page.path === '/landing');
    expect(landing?.landing?.features.length).toBeGreaterThanOrEqual(6);
    expect(landing?.landing?.testimonials.length).toBeGreaterThanOrEqual(3);
    expect(landing?.landing?.faq.length).toBeGreaterThanOrEqual(8);
    expect(en.filter((page) => page.kind === 'post').length).toBeGreaterThanOrEqual(3);
    const guide = published.navigation.get('en')?.guide.map((chapter) => chapter.path);
    expect(guide).toEqual([
      '/guide/capture',
      '/guide/linking',
      '/guide/review',
      '/guide/search',
      '/guide/chat',
      '/guide/export',
      '/guide/offline-app',
      '/guide/self-hosting',
    ]);
    const zhLanding = published.pages.get('zh')?.find((page) => page.path === '/landing');
    expect(zhLanding?.lang).toBe('zh');
    expect(zhLanding?.translations).toEqual(['en', 'zh']);
  });

  it('keeps drafts out of the published site and in the preview', () => {
    const drafts = sources.filter((source) => source.meta.draft);
    expect(drafts.length).toBeGreaterThan(0);
    for (const draft of drafts) {
      expect(published.files.has(contentFiles.page('en', draft.path))).toBe(false);
      expect(preview.files.has(contentFiles.page('en', draft.path))).toBe(true);
      const listed = (published.files.get(contentFiles.posts('en', 1)) as PostList).items;
      expect(listed.map((post) => post.path)).not.toContain(draft.path);
      expect(documentPaths(published, 'en')).not.toContain(draft.path);
    }
  });

  it('shows a post that exists only in English to a Chinese reader in English', () => {
    const englishOnly = sources.find(
      (source) =>
        source.kind === 'post' &&
        !source.meta.draft &&
        !sources.some((other) => other.lang === 'zh' && other.path === source.path),
    );
    expect(englishOnly).toBeDefined();
    const shown = published.files.get(
      contentFiles.page('zh', englishOnly?.path ?? ''),
    ) as PagePayload;
    expect(shown.lang).toBe('en');
    expect(shown.translations).toEqual(['en']);
  });

  it('lists posts newest first, by topic too, every page of the lists a document', () => {
    for (const lang of ['en', 'zh'] as const) {
      for (const list of published.lists.get(lang) ?? []) {
        const dates = list.items.map((post) => post.date ?? '');
        expect(dates).toEqual([...dates].sort().reverse());
        if (list.tag)
          expect(list.items.every((post) => post.tags.includes(list.tag ?? ''))).toBe(true);
        expect(documentPaths(published, lang)).toContain(postListPath(list.page, list.tag));
      }
    }
  });

  it('links only to pages that exist, in every page of both languages', () => {
    const known = new Set([...documentPaths(published, 'en'), ...appPaths]);
    const anchors = new Set(
      (published.pages.get('en') ?? []).flatMap((page) => [
        ...page.headings.map((heading) => `${page.path}#${heading.id}`),
        ...(page.landing ? ['features', 'pricing', 'faq'].map((id) => `${page.path}#${id}`) : []),
      ]),
    );
    const broken: string[] = [];
    for (const lang of ['en', 'zh'] as const) {
      for (const page of published.pages.get(lang) ?? []) {
        const hrefs = [
          ...[...page.html.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? ''),
          ...(page.landing?.features.map((feature) => feature.href) ?? []),
          ...(page.landing?.faq.flatMap((item) =>
            [...item.html.matchAll(/href="([^"]+)"/g)].map((match) => match[1] ?? ''),
          ) ?? []),
        ].filter((href) => href.startsWith('/'));
        for (const href of hrefs) {
          const [target = '', hash] = href.split('#');
          const ok = known.has(target) && (!hash || anchors.has(href) || target !== page.path);
          if (!ok) broken.push(`${lang}${page.path} → ${href}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('describes every page in a length search results show', () => {
    for (const source of sources) {
      expect(source.meta.description.length, source.file).toBeGreaterThanOrEqual(50);
      expect(source.meta.description.length, source.file).toBeLessThanOrEqual(200);
    }
  });
});

describe('cover illustrations', () => {
  const imagesDir = path.join(contentDir, 'images');
  const covers = readdirSync(imagesDir).filter((name) => name.endsWith('.svg'));

  it('paint every colour with a cover variable, so that the dark theme reaches all of it', () => {
    expect(covers.length).toBeGreaterThan(0);
    for (const name of covers) {
      const text = readFileSync(path.join(imagesDir, name), 'utf8');
      // A colour attribute is not themed; a var() without its light colour has none alone.
      expect(text, name).not.toMatch(/\s(fill|stroke|stop-color)="#/);
      for (const [, variable, fallback] of text.matchAll(/var\((--[a-z-]+)(,[^)]*)?\)/g)) {
        expect(variable, name).toMatch(/^--cover-/);
        expect(fallback, `${name} ${variable}`).toMatch(/^,#[0-9a-f]{6}$/);
      }
    }
  });

  it('are drawn inline with ids of their own, each page holding several', () => {
    const { svg, width, height } = inlineSvg(
      readFileSync(path.join(imagesDir, 'offline-first-notes.svg'), 'utf8'),
      'offline-first-notes.svg',
    );
    expect({ width, height }).toEqual({ width: 1200, height: 630 });
    expect(svg).toMatch(/^<svg aria-hidden="true" focusable="false" /);
    expect(svg).toContain('<linearGradient id="cover-offline-first-notes-bg"');
    expect(svg).toContain('fill="url(#cover-offline-first-notes-bg)"');
    expect(svg).not.toMatch(/id="bg"|url\(#bg\)/);
  });

  it('refuses a cover that would run or load something in the page', () => {
    const svg = (inner: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${inner}</svg>`;
    for (const inner of [
      '<script>alert(1)</script>',
      '<rect onclick="alert(1)"/>',
      '<style>body{display:none}</style>',
      '<image href="https://example.org/a.png"/>',
      '<a href="javascript:alert(1)"><rect/></a>',
    ]) {
      expect(() => inlineSvg(svg(inner), 'bad.svg'), inner).toThrow(
        'bad.svg: a cover SVG holds only shapes and paint',
      );
    }
    expect(() => inlineSvg('<svg viewBox="0 0 1 1"></svg>', 'bad.svg')).toThrow(
      'bad.svg: the svg element needs a width and a height',
    );
  });
});

describe('content that is wrong fails the build, naming the file', () => {
  const site = (files: Record<string, string>) => {
    const root = mkdtempSync(path.join(tmpdir(), 'noted-content-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  };

  it('refuses a page without front matter, or without a title', async () => {
    await expect(readSources(site({ 'en/about.md': '# About\n' }))).rejects.toThrow(
      'en/about.md: it must start with YAML front matter',
    );
    await expect(
      readSources(site({ 'en/about.md': '---\ndescription: A page about us.\n---\nBody\n' })),
    ).rejects.toThrow(/en\/about\.md: title/);
  });

  it('refuses a post without a date, a bad tag, a page in the wrong language folder', async () => {
    await expect(
      readSources(site({ 'en/blog/a-post.md': '---\ntitle: A\ndescription: B\n---\n' })),
    ).rejects.toThrow('en/blog/a-post.md: posts need a date');
    await expect(
      readSources(
        site({
          'en/blog/a-post.md':
            '---\ntitle: A\ndescription: B\ndate: 2026-01-02\ntags: [Not A Slug]\n---\n',
        }),
      ),
    ).rejects.toThrow(/en\/blog\/a-post\.md: tags\.0/);
    await expect(
      readSources(site({ 'zh/about.md': '---\ntitle: A\ndescription: B\nlang: en\n---\n' })),
    ).rejects.toThrow('zh/about.md: lang en in a zh folder');
  });
});
