import { describe, expect, it, vi } from 'vitest';
import { fetchContent, loadView, previewHeader, takePreviewToken } from './client';

const storage = () => {
  const kept = new Map<string, string>();
  return {
    getItem: (key: string) => kept.get(key) ?? null,
    setItem: (key: string, value: string) => void kept.set(key, value),
    removeItem: (key: string) => void kept.delete(key),
  };
};

describe('content fetches', () => {
  it('takes a 404 as not found, and an HTML page answered instead of JSON as not found too', async () => {
    const missing = vi.fn(async () =>
      Response.json({ error: { code: 'NOT_FOUND' } }, { status: 404 }),
    );
    expect((await fetchContent('pages/en/x.json', undefined, missing)).value).toBeUndefined();
    const html = vi.fn(
      async () =>
        new Response('<!doctype html><title>Noted</title>', {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }),
    );
    expect((await fetchContent('pages/en/x.json', undefined, html)).value).toBeUndefined();
  });

  it('fails on a server error rather than calling the page missing', async () => {
    const broken = vi.fn(async () => new Response('', { status: 503 }));
    await expect(fetchContent('pages/en/x.json', undefined, broken)).rejects.toThrow('HTTP 503');
  });

  it('sends the preview token and reads whether the gateway took it', async () => {
    const fetcher = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      expect(new Headers(init?.headers).get(previewHeader)).toBe('t0ken');
      return Response.json({ title: 'x' }, { headers: { [previewHeader]: 'refused' } });
    });
    expect((await fetchContent('pages/en/x.json', 't0ken', fetcher)).preview).toBe('refused');
  });

  it('loads a path as a page, a list of posts, or not found', async () => {
    const fetcher = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/content/navigation/en.json')
        return Response.json({ guide: [], tags: [], pages: [] });
      if (url === '/content/posts/en/tag/ai/2.json')
        return Response.json({ items: [], page: 2, pages: 2, total: 7, tag: 'ai' });
      if (url === '/content/pages/en/about.json')
        return Response.json({ kind: 'page', title: 'About' });
      return Response.json({}, { status: 404 });
    });
    expect((await loadView('/blog/tag/ai/page/2', 'en', undefined, fetcher)).view.kind).toBe(
      'list',
    );
    expect((await loadView('/about/', 'en', undefined, fetcher)).view.kind).toBe('page');
    expect((await loadView('/nowhere', 'en', undefined, fetcher)).view).toEqual({
      kind: 'notFound',
      path: '/nowhere',
    });
  });
});

describe('the preview token', () => {
  it('is kept from ?preview= and forgotten with ?preview=off', () => {
    const kept = storage();
    expect(takePreviewToken('', kept)).toBeUndefined();
    expect(takePreviewToken('?preview=abc', kept)).toBe('abc');
    expect(takePreviewToken('?x=1', kept)).toBe('abc');
    expect(takePreviewToken('?preview=off', kept)).toBeUndefined();
    expect(takePreviewToken('', kept)).toBeUndefined();
  });
});
