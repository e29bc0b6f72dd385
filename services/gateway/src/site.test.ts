import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@noted/kit';
import { gatewayConfigFrom, gatewayConfigSchema } from './config.js';
import { startGateway, type RunningGateway } from './gateway.js';
import { ORIGIN_PLACEHOLDER, PATH_PLACEHOLDER, PREVIEW_HEADER } from './site.js';

const theme = '(function () { document.documentElement.dataset.theme = "x"; })();';
const doc = (lang: string, text: string) =>
  `<!doctype html><html lang="${lang}"><head><script>${theme}</script>` +
  `<link rel="canonical" href="${ORIGIN_PLACEHOLDER}/landing" /></head>` +
  `<body><h1>${text}</h1><script type="application/json" id="site-data">{"a":1}</script></body></html>`;

/** A marketing build as scripts/build-site.ts writes it, in small. */
const writeSite = (root: string) => {
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    'pages/index.json',
    JSON.stringify({ documents: { en: ['/landing', '/blog/first'], zh: ['/landing'] } }),
  );
  write('pages/en/landing.html', doc('en', 'Write it down.'));
  write('pages/zh/landing.html', doc('zh', '记下来。'));
  write('pages/en/blog/first.html', doc('en', 'First post'));
  write('pages/en/404.html', doc('en', `Page not found: ${PATH_PLACEHOLDER}`));
  write('pages/zh/404.html', doc('zh', `页面不存在：${PATH_PLACEHOLDER}`));
  write(
    'pages/sitemap.xml',
    `<urlset><url><loc>${ORIGIN_PLACEHOLDER}/landing</loc></url></urlset>`,
  );
  write('pages/robots.txt', `User-agent: *\nSitemap: ${ORIGIN_PLACEHOLDER}/sitemap.xml\n`);
  write('pages/feed.en.xml', `<rss><link>${ORIGIN_PLACEHOLDER}/blog</link></rss>`);
  write('pages/feed.zh.xml', `<rss><language>zh-CN</language></rss>`);
  write('content/public/pages/en/blog/first.json', JSON.stringify({ title: 'First post' }));
  write('content/preview/pages/en/blog/first.json', JSON.stringify({ title: 'First post' }));
  write('content/preview/pages/en/blog/draft.json', JSON.stringify({ title: 'A draft' }));
  write('site/site.12345678.js', 'console.log("site");');
  write('remote/mf-manifest.json', JSON.stringify({ name: 'marketing' }));
};

describe('the marketing site through the gateway', () => {
  let gateway: RunningGateway | undefined;
  let url = '';
  const origin = 'https://notes.example.com';

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'noted-site-'));
    writeSite(path.join(root, 'marketing'));
    mkdirSync(path.join(root, 'shell'));
    writeFileSync(
      path.join(root, 'shell', 'index.html'),
      '<!doctype html><title>Noted app</title>',
    );
    const closed = 'http://127.0.0.1:9';
    const env = gatewayConfigSchema.parse({
      PORT: '0',
      PUBLIC_URL: origin,
      USERS_URL: closed,
      NOTES_URL: closed,
      IDENTITY_URL: closed,
      USERS_GRPC_ADDR: '127.0.0.1:9',
      CONTENT_PREVIEW_TOKEN: 'let-me-see-drafts',
    });
    gateway = await startGateway(
      gatewayConfigFrom(env, {
        host: '127.0.0.1',
        internalSecret: 'a-secret-of-at-least-thirty-two-chars!!',
        webRoot: {
          shell: path.join(root, 'shell'),
          notes: path.join(root, 'none'),
          billing: path.join(root, 'none'),
          marketing: path.join(root, 'marketing'),
        },
      }),
      { logger: createLogger({ level: 'silent' }) },
    );
    url = gateway.url;
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  const page = (pathname: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${pathname}`, { headers: { accept: 'text/html', ...headers } });

  it('serves a prerendered page with the deployment origin in its absolute addresses', async () => {
    const answer = await page('/landing');
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('<h1>Write it down.</h1>');
    expect(html).toContain(`<link rel="canonical" href="${origin}/landing" />`);
    expect(html).not.toContain(ORIGIN_PLACEHOLDER);
    expect(answer.headers.get('vary')).toMatch(/accept-language/i);
  });

  it('picks the language from ?lang, then the locale cookie, then Accept-Language', async () => {
    const h1 = async (answer: Response) => /<h1>(.*?)<\/h1>/.exec(await answer.text())?.[1];
    expect(await h1(await page('/landing?lang=zh'))).toBe('记下来。');
    expect(await h1(await page('/landing', { cookie: 'theme=dark; locale=zh' }))).toBe('记下来。');
    expect(await h1(await page('/landing', { 'accept-language': 'zh-CN,zh;q=0.9' }))).toBe(
      '记下来。',
    );
    expect(await h1(await page('/landing?lang=en', { cookie: 'locale=zh' }))).toBe(
      'Write it down.',
    );
    expect(await h1(await page('/landing', { 'accept-language': 'fr' }))).toBe('Write it down.');
  });

  it('answers a missing post with a real 404 page that names the path, escaped', async () => {
    const answer = await page('/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toContain('Page not found: /blog/&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).not.toContain('<script>alert(1)');
    const zh = await page('/guide/nothing', { cookie: 'locale=zh' });
    expect(zh.status).toBe(404);
    expect(await zh.text()).toContain('页面不存在：/guide/nothing');
  });

  it("answers a page path that is neither the site's nor the app's with the 404 page", async () => {
    for (const missing of ['/pricing', '/notes', '/settings', '/chat/1/2']) {
      const answer = await page(missing);
      expect(answer.status, missing).toBe(404);
      expect(await answer.text()).toContain(`Page not found: ${missing}`);
    }
  });

  it('leaves the app its own pages, and the API its own answers', async () => {
    for (const appPage of [
      '/',
      '/todos',
      '/Todos/',
      '/notes/abc',
      '/chat',
      '/chat/c1',
      '/notes/s/x',
      '/feedback',
      '/subscription/success',
    ]) {
      const answer = await page(appPage);
      expect(answer.status, appPage).toBe(200);
      expect(await answer.text()).toContain('Noted app');
    }
    for (const server of ['/api/nothing', '/public/nothing']) {
      const answer = await page(server);
      expect(answer.status, server).toBeGreaterThanOrEqual(400);
      expect(answer.headers.get('content-type'), server).toMatch(/json/);
    }
  });

  it('serves content as JSON, and a missing file as a JSON 404, never the app', async () => {
    const found = await fetch(`${url}/content/pages/en/blog/first.json`);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ title: 'First post' });
    const missing = await fetch(`${url}/content/pages/en/blog/nothing.json`, {
      headers: { accept: 'text/html' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('shows drafts only with the preview token, and says whether it took it', async () => {
    const draft = '/content/pages/en/blog/draft.json';
    expect((await fetch(`${url}${draft}`)).status).toBe(404);
    const refused = await fetch(`${url}${draft}`, { headers: { [PREVIEW_HEADER]: 'guess' } });
    expect(refused.status).toBe(404);
    expect(refused.headers.get(PREVIEW_HEADER)).toBe('refused');
    const shown = await fetch(`${url}${draft}`, {
      headers: { [PREVIEW_HEADER]: 'let-me-see-drafts' },
    });
    expect(shown.status).toBe(200);
    expect(shown.headers.get(PREVIEW_HEADER)).toBe('on');
    expect(await shown.json()).toEqual({ title: 'A draft' });
  });

  it('serves the sitemap, robots.txt and the feeds with the deployment origin', async () => {
    expect(await (await fetch(`${url}/sitemap.xml`)).text()).toContain(`${origin}/landing`);
    expect(await (await fetch(`${url}/robots.txt`)).text()).toContain(
      `Sitemap: ${origin}/sitemap.xml`,
    );
    const feed = await fetch(`${url}/blog/feed.xml`);
    expect(feed.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    expect(await feed.text()).toContain(`${origin}/blog`);
    expect(await (await fetch(`${url}/blog/feed.xml?lang=zh`)).text()).toContain('zh-CN');
  });

  it('lets the theme script of the pages run, by its hash, and serves the site script', async () => {
    const answer = await page('/landing');
    const csp = answer.headers.get('content-security-policy') ?? '';
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(theme).digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect((await fetch(`${url}/site/site.12345678.js`)).status).toBe(200);
    expect((await fetch(`${url}/remotes/marketing/mf-manifest.json`)).status).toBe(200);
  });
});
