import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleReader, type ArticleReader } from './article-reader.js';
import { extractArticle } from './article.js';

const paragraph = (topic: string) =>
  `<p>${topic} is where most of the effort went this year. The team measured every step, ` +
  `compared the numbers with last year's, and wrote down what changed and why it mattered ` +
  `for the people who use the product every day.</p>`;

/** A news page as served: head metadata, navigation, ads, a sidebar, the article, a footer. */
const newsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>How we cut build times in half | Example Engineering</title>
  <meta property="og:title" content="How we cut build times in half">
  <meta property="og:site_name" content="Example Engineering">
  <meta property="og:image" content="/images/cover.png">
  <meta property="article:published_time" content="2026-03-14T09:00:00Z">
  <meta name="author" content="Ada Park">
  <style>body { font-family: sans-serif }</style>
  <script>window.analytics = { track() {} };</script>
</head>
<body>
  <header>
    <nav class="site-nav">
      <a href="/">Home</a> <a href="/blog">Blog</a> <a href="/careers">Careers at Example</a>
    </nav>
  </header>
  <div class="ad-banner">Sponsored: Buy cheap widgets today</div>
  <main>
    <article>
      <h1>How we cut build times in half</h1>
      <p class="byline">By Ada Park</p>
      ${paragraph('Caching')}
      <h2>What we changed</h2>
      ${paragraph('Parallel builds')}
      <ul>
        <li>Remote caching for every branch</li>
        <li>Incremental type checking</li>
        <li>Smaller container images</li>
      </ul>
      <p>Read the <a href="../docs/caching.html">caching guide</a> for details, or
        <a href="javascript:alert('hi')">click here to subscribe</a>.</p>
      <figure><img src="diagrams/pipeline.png" alt="The new pipeline"><figcaption>The new pipeline</figcaption></figure>
      <h2>The configuration</h2>
      <pre><code class="language-yaml">cache:
  remote: true
  paths: [node_modules]</code></pre>
      ${paragraph('Measuring')}
      <form class="newsletter"><input type="email" placeholder="Email"><button>Subscribe to our newsletter</button></form>
    </article>
  </main>
  <aside class="sidebar">
    <h3>Trending</h3>
    <ul><li><a href="/post/1">Ten tips for faster laptops</a></li></ul>
    <div class="advertisement">Advertisement: Premium hosting deals</div>
  </aside>
  <footer>© 2026 Example Inc. All rights reserved. <a href="/privacy">Privacy policy</a></footer>
  <script src="/app.js"></script>
</body>
</html>`;

describe('extractArticle', () => {
  const url = 'https://engineering.example.com/blog/2026/build-times';

  it('turns the article of a page into Markdown without the page around it', () => {
    const article = extractArticle(newsPage, url);
    expect(article.title).toBe('How we cut build times in half');
    expect(article.siteName).toBe('Example Engineering');
    expect(article.lang).toBe('en');
    expect(article.publishedTime).toBe('2026-03-14T09:00:00Z');
    expect(article.byline).toMatch(/Ada Park/);

    const { markdown } = article;
    expect(markdown).toMatch(/^## What we changed$/m);
    expect(markdown).toMatch(/^## The configuration$/m);
    expect(markdown).toMatch(/^- Remote caching for every branch$/m);
    expect(markdown).toMatch(/^- Incremental type checking$/m);
    expect(markdown).toContain(
      '[caching guide](https://engineering.example.com/blog/docs/caching.html)',
    );
    expect(markdown).toContain(
      '![The new pipeline](https://engineering.example.com/blog/2026/diagrams/pipeline.png)',
    );
    expect(markdown).toContain('```yaml\ncache:\n  remote: true\n  paths: [node_modules]\n```');
    expect(markdown).toContain('Parallel builds is where most of the effort went');

    for (const outside of [
      'Careers at Example',
      'Sponsored',
      'Trending',
      'Premium hosting',
      'All rights reserved',
      'Privacy policy',
      'analytics',
      'font-family',
      'Subscribe to our newsletter',
    ]) {
      expect(markdown).not.toContain(outside);
    }
    expect(markdown).not.toMatch(/\n{3,}/);

    expect(article.images).toEqual([
      'https://engineering.example.com/images/cover.png',
      'https://engineering.example.com/blog/2026/diagrams/pipeline.png',
    ]);
  });

  it('keeps the text of a javascript: link and drops its address', () => {
    const { markdown } = extractArticle(newsPage, url);
    expect(markdown).toContain('click here to subscribe');
    expect(markdown).not.toMatch(/javascript:/i);
    expect(markdown).not.toContain('](javascript');
  });

  it('resolves against <base href>', () => {
    const page = `<html><head><base href="https://cdn.example.net/assets/"><title>Notes</title></head>
      <body><article><h1>Notes</h1>${paragraph('Writing')}${paragraph('Reading')}
      <p><img src="photo.jpg" alt="A photo"> <a href="page.html">next page</a></p></article></body></html>`;
    const article = extractArticle(page, 'https://example.com/notes');
    expect(article.markdown).toContain('![A photo](https://cdn.example.net/assets/photo.jpg)');
    expect(article.markdown).toContain('[next page](https://cdn.example.net/assets/page.html)');
    expect(article.siteName).toBe('example.com');
  });

  it('reads a Chinese article', () => {
    const body = [
      '今天下午三点在三楼会议室开会，讨论下一季度的预算和招聘计划。',
      '财务部门已经准备好了详细的数据，请各位提前阅读附件中的报告，并准备好自己的问题。',
      '会议结束后，我们会把讨论的结论整理成文档，发送给所有相关的同事。',
    ]
      .map((text) => `<p>${text}${text}</p>`)
      .join('\n');
    const page = `<html lang="zh-CN"><head><meta charset="utf-8"><title>预算会议通知 - 公司内网</title></head>
      <body><nav><a href="/">首页</a><a href="/news">新闻中心</a></nav>
      <article><h1>预算会议通知</h1>${body}<h2>会议议程</h2><ol><li>回顾上季度支出</li><li>讨论招聘计划</li></ol></article>
      <footer>版权所有 公司内网</footer></body></html>`;
    const article = extractArticle(page, 'https://intranet.example.cn/news/42');
    expect(article.title).toMatch(/预算会议通知/);
    expect(article.lang).toBe('zh-CN');
    expect(article.markdown).toContain('今天下午三点在三楼会议室开会');
    expect(article.markdown).toMatch(/^## 会议议程$/m);
    expect(article.markdown).toMatch(/^1\. +回顾上季度支出$/m);
    expect(article.markdown).not.toContain('新闻中心');
    expect(article.markdown).not.toContain('版权所有');
  });

  it('falls back to the body of a page without an article', () => {
    const page = `<html><head><title>Status</title></head><body><div>All systems operational.</div></body></html>`;
    const article = extractArticle(page, 'https://status.example.com/');
    expect(article.markdown).toBe('All systems operational.');
    expect(article.title).toBe('Status');
    expect(article.siteName).toBe('status.example.com');
  });

  it('reads a page that leaves out its <html>, <head> and <body> tags', () => {
    const page = `<!doctype html><title>Short page</title><h1>Short page</h1><p>Only a paragraph of text.</p>`;
    const article = extractArticle(page, 'https://example.com/short');
    expect(article.title).toBe('Short page');
    expect(article.markdown).toContain('Only a paragraph of text.');
    expect(extractArticle('Just some words', 'https://example.com/').markdown).toBe(
      'Just some words',
    );
  });

  it('caps the Markdown at maxChars', () => {
    const { markdown } = extractArticle(newsPage, url, { maxChars: 200 });
    expect(markdown.length).toBeLessThanOrEqual(200);
    expect(markdown.length).toBeGreaterThan(100);
  });

  it('refuses a page with more elements than maxElements', () => {
    expect(() => extractArticle(newsPage, url, { maxElements: 10 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', cause: 'element limit' }),
    );
    expect(extractArticle(newsPage, url, { maxElements: 100 }).title).toBe(
      'How we cut build times in half',
    );
  });

  it('refuses a page without text', () => {
    for (const page of [
      '',
      '<html><head><title>Empty</title></head><body></body></html>',
      '<html><body><script>document.write("hi")</script><img src="/x.png"><nav> </nav></body></html>',
    ]) {
      expect(() => extractArticle(page, url)).toThrow(
        expect.objectContaining({ code: 'NO_TEXT_FOUND', message: 'The page has no article text' }),
      );
    }
  });
});

/** About 2 MB of article: 9,000 paragraphs, a page that takes a second or two to read. */
const largePage = () =>
  `<!doctype html><html lang="en"><head><title>A long report</title></head><body><article>` +
  `<h1>A long report</h1>` +
  Array.from({ length: 9000 }, (_, i) => paragraph(`Step ${i + 1}`)).join('\n') +
  `</article></body></html>`;

describe('createArticleReader', () => {
  const url = 'https://engineering.example.com/blog/2026/build-times';
  let reader: ArticleReader;

  beforeAll(() => {
    reader = createArticleReader();
  });
  afterAll(async () => {
    await reader.close();
  });

  it('reads a page in its sandbox as extractArticle does in this process', async () => {
    expect(await reader.read(newsPage, url)).toEqual(extractArticle(newsPage, url));
    await expect(reader.read('<html><body><nav> </nav></body></html>', url)).rejects.toThrow(
      expect.objectContaining({ code: 'NO_TEXT_FOUND', message: 'The page has no article text' }),
    );
  });

  it('keeps the event loop turning while it reads a large page', async () => {
    // The thread is started (and the parser loaded) by the read before.
    await reader.read(newsPage, url);
    const page = largePage();
    expect(page.length).toBeGreaterThan(2_000_000);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    try {
      const article = await reader.read(page, url);
      expect(article.title).toBe('A long report');
      // Cut at the default maxChars, a million characters.
      expect(article.markdown.length).toBeGreaterThan(990_000);
    } finally {
      clearInterval(timer);
    }
    // On the event loop, the page would have kept every tick waiting until it was read.
    expect(ticks).toBeGreaterThan(2);
  });

  it('ends a page that takes longer than timeoutMs', async () => {
    const slow = createArticleReader({ limits: { timeoutMs: 50 } });
    try {
      await expect(slow.read(largePage(), url)).rejects.toThrow(
        expect.objectContaining({
          code: 'VALIDATION_FAILED',
          message: 'The page is too complex to read',
          cause: 'timeout',
        }),
      );
    } finally {
      await slow.close();
    }
  });

  it('refuses a page with more elements than maxElements before parsing it', async () => {
    const small = createArticleReader({ limits: { maxElements: 10 } });
    try {
      await expect(small.read(newsPage, url)).rejects.toThrow(
        expect.objectContaining({
          code: 'VALIDATION_FAILED',
          message: 'The page is too complex to read',
          cause: 'element limit',
        }),
      );
    } finally {
      await small.close();
    }
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const reading = reader.read(largePage(), url, controller.signal);
    setTimeout(() => controller.abort(new Error('client left')), 100);
    await expect(reading).rejects.toThrow('client left');
  });

  it('refuses reads once closed', async () => {
    const closing = createArticleReader();
    await closing.read(newsPage, url);
    await closing.close();
    await expect(closing.read(newsPage, url)).rejects.toThrow(/closed/);
  });
});
