import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSite, inlineSvg, readSources, type SiteContent } from '../../scripts/content';
import { previewHeader } from '../content/client';
import type { SiteLanguage } from '../content/model';
import type { SiteView } from '../pages/SitePage';
import { renderSitePage } from '../prerender';
import type { SiteData } from './data';
import { SiteRoot } from './SiteRoot';

const contentDir = path.resolve(import.meta.dirname, '../../content');
/** The covers as the build reads them: SVGs drawn inline. */
const readImage = async (src: string) =>
  inlineSvg(await readFile(path.join(contentDir, src.replace(/^\/content\//, '')), 'utf8'), src);

// React's act() outside testing-library: say this is a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let site: SiteContent;
let root: Root | undefined;

beforeAll(async () => {
  site = await buildSite(await readSources(contentDir), { drafts: false, readImage });
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const dataFor = (lang: SiteLanguage, pagePath: string): SiteData => {
  const page = site.pages.get(lang)?.find((candidate) => candidate.path === pagePath);
  const list = site.lists.get(lang)?.find((candidate) => candidate.page === 1 && !candidate.tag);
  const view: SiteView = page
    ? { kind: 'page', page }
    : pagePath === '/blog' && list
      ? { kind: 'list', list }
      : { kind: 'notFound', path: pagePath };
  return {
    lang,
    view,
    navigation: site.navigation.get(lang) ?? { guide: [], tags: [], pages: [] },
  };
};

/** Puts the prerendered HTML in the page and hydrates it, collecting what React complains of. */
const hydrate = async (data: SiteData, pagePath: string, token?: string) => {
  const container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = renderSitePage(data, pagePath);
  document.body.append(container);
  const recoverable = vi.fn();
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await act(async () => {
    root = hydrateRoot(container, <SiteRoot data={data} path={pagePath} token={token} />, {
      onRecoverableError: recoverable,
    });
  });
  return { container, recoverable, consoleError };
};

/** The plans of a server without payments: its free plan holds nothing back, unless `limits`. */
const plansAnswerOf = (limits: Record<string, number | boolean> = {}) => ({
  plans: [
    {
      name: 'free',
      tier: 'free',
      entitlements: {
        notes_per_month: -1,
        recordingTimeLimit: -1,
        ai_assist: true,
        export_markdown: true,
        export_pdf: true,
        export_image: true,
        ...limits,
      },
      prices: [],
    },
    {
      name: 'standard',
      tier: 'premium',
      entitlements: { notes_per_month: 1000, recordingTimeLimit: 600 },
      prices: [],
    },
  ],
  paymentsEnabled: false,
  publishableKey: null,
});
const plansAnswer = plansAnswerOf();

describe('a prerendered page hydrates as it was rendered', () => {
  it.each([
    ['en', '/landing'],
    ['zh', '/landing'],
    ['en', '/guide'],
    ['en', '/guide/capture'],
    ['en', '/blog'],
    ['en', '/blog/offline-first-notes'],
    ['zh', '/blog/offline-first-notes'],
    ['en', '/about'],
    ['en', '/pricing'],
    ['zh', '/pricing'],
    ['en', '/blog/no-such-post'],
  ] as const)('%s %s, without a mismatch', async (lang, pagePath) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(plansAnswer)),
    );
    const { container, recoverable, consoleError } = await hydrate(
      dataFor(lang, pagePath),
      pagePath,
    );
    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError.mock.calls.map((call) => String(call[0]).slice(0, 300))).toEqual([]);
    expect(container.querySelector('h1')?.textContent).toBeTruthy();
    if (pagePath === '/blog/no-such-post') {
      expect(container.querySelector('h1')?.textContent).toBe('Page not found: /blog/no-such-post');
    }
  });

  it('draws the covers in the page, where the theme reaches them, before and after hydration', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(plansAnswer)),
    );
    const article = dataFor('en', '/blog/offline-first-notes');
    expect(renderSitePage(article, '/blog/offline-first-notes')).toMatch(
      /<div class="site-cover site-cover-art"><svg aria-hidden="true"/,
    );
    const { container } = await hydrate(article, '/blog/offline-first-notes');
    expect(container.querySelector('.site-cover svg linearGradient')?.id).toBe(
      'cover-offline-first-notes-bg',
    );
    expect(container.querySelector('img')).toBeNull();
    act(() => root?.unmount());
    root = undefined;
    document.body.innerHTML = '';

    const list = await hydrate(dataFor('en', '/blog'), '/blog');
    const ids = [...list.container.querySelectorAll('.site-post-card svg [id]')].map((e) => e.id);
    expect(ids.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('then offers "Open your notes" to a browser the shell found signed in', async () => {
    localStorage.setItem('notedSignedIn', '1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(plansAnswer)),
    );
    const { container, recoverable } = await hydrate(dataFor('en', '/guide'), '/guide');
    expect(recoverable).not.toHaveBeenCalled();
    const banner = container.querySelector('header') as HTMLElement;
    expect(banner.textContent).toContain('Open your notes');
    expect(banner.textContent).not.toContain('Sign in');
  });

  it('fills the pricing from the billing plans once hydrated: free to use without payments', async () => {
    const fetch = vi.fn(async () => Response.json(plansAnswer));
    vi.stubGlobal('fetch', fetch);
    const { container } = await hydrate(dataFor('en', '/landing'), '/landing');
    const pricing = () => container.querySelector('#pricing') as HTMLElement;
    await vi.waitFor(() => expect(pricing().textContent).toContain('This server is free to use'));
    expect(fetch).toHaveBeenCalledWith('/api/stripe/plans', expect.anything());
    expect(pricing().textContent).toContain(
      'Every account has every feature, with no monthly limit. There is nothing to buy here.',
    );
    // No price cards that cannot be bought, and no lede about plans that are not sold.
    expect(pricing().querySelector('.site-plan')).toBeNull();
    expect(pricing().querySelector('.landing-section-lede')).toBeNull();
    expect([...pricing().querySelectorAll('button')].map((button) => button.textContent)).toEqual([
      'Start writing',
    ]);
  });

  it("lists a server's own limits on the pricing page, in Chinese too", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(plansAnswerOf({ notes_per_month: 300, export_pdf: false }))),
    );
    const { container } = await hydrate(dataFor('zh', '/pricing'), '/pricing');
    expect(container.querySelector('h1')?.textContent?.trim()).toBe('价格');
    await vi.waitFor(() => expect(container.textContent).toContain('此服务器免费使用'));
    const limits = container.querySelector('ul[aria-label="此服务器的限制"]');
    expect([...(limits?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      '每月 300 条新笔记',
      '不提供 PDF 导出',
    ]);
  });

  it('shows the plans with their prices on the pricing page of a server that sells them', async () => {
    const price = (interval: string, amount: number) => ({
      interval,
      amount,
      currency: 'usd',
      trialDays: null,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          ...plansAnswerOf({ notes_per_month: 100, recordingTimeLimit: 60 }),
          plans: [
            plansAnswerOf().plans[0],
            { ...plansAnswerOf().plans[1], prices: [price('month', 500), price('year', 5000)] },
          ],
          paymentsEnabled: true,
          publishableKey: 'pk_test_noted',
        }),
      ),
    );
    const { container } = await hydrate(dataFor('en', '/pricing'), '/pricing');
    await vi.waitFor(() => expect(container.querySelectorAll('.site-plan h3')).toHaveLength(2));
    expect(container.textContent).toContain('$5');
    expect(container.textContent).not.toContain('This server is free to use');
    expect(container.querySelector('.site-article-lede')?.textContent).toBeTruthy();
  });

  it('reads a draft again with the preview token and says preview is on', async () => {
    const draft = dataFor('en', '/about').view;
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (url.startsWith('/content/navigation/')) {
        return Response.json(site.navigation.get('en'), { headers: { [previewHeader]: 'on' } });
      }
      expect(headers.get(previewHeader)).toBe('the-token');
      return Response.json(
        {
          ...(draft.kind === 'page' ? draft.page : {}),
          path: '/blog/draft',
          title: 'A draft',
          kind: 'post',
          draft: true,
        },
        { headers: { [previewHeader]: 'on' } },
      );
    });
    vi.stubGlobal('fetch', fetch);
    const { container } = await hydrate(dataFor('en', '/blog/draft'), '/blog/draft', 'the-token');
    await vi.waitFor(() => expect(container.querySelector('h1')?.textContent).toContain('A draft'));
    expect(container.textContent).toContain('Preview mode: drafts are shown.');
    expect(container.querySelector('.site-draft')?.textContent).toBe('Draft');
  });
});
