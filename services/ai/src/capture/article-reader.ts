import { AppError } from '@noted/api';
// Types only: the parser's packages load in the worker thread, not here.
import type { Article, ArticleTask, ArticleTaskResult } from './article.worker.js';
import { createBoundedPool } from './threads.js';

export type { Article } from './article.worker.js';

export interface ArticleLimits {
  /** Characters of Markdown kept. */
  maxChars: number;
  /** Per page, from the moment a worker takes it. */
  timeoutMs: number;
  /** A worker's JS heap, where the page's DOM is built. */
  memoryMb: number;
  /** Elements of a page (`elementCount`); a page with more is refused before it is parsed. */
  maxElements: number;
}

export const ARTICLE_LIMITS: ArticleLimits = {
  maxChars: 1_000_000,
  timeoutMs: 20_000,
  memoryMb: 256,
  // A third of what took the process down (see `elementCount`). A dense 5 MB page has some
  // 75,000; 100,000 took 10 to 30 s to read, or reached the heap limit.
  maxElements: 100_000,
};

export interface ArticleReader {
  /** The article of the page at `url` (absolute) whose HTML is `html`, as `extractArticle`. */
  read(html: string, url: string, signal?: AbortSignal): Promise<Article>;
  close(): Promise<void>;
}

export interface ArticleReaderOptions {
  /** Worker threads, default 1. */
  workers?: number;
  limits?: Partial<ArticleLimits>;
}

const tooComplex = (cause: string) =>
  Object.assign(new AppError('VALIDATION_FAILED', 'The page is too complex to read'), { cause });
const closedError = () => new Error('The article reader is closed');

/** The error of a page that reads as no article, on either thread. */
export const pageError = (kind: 'no-text' | 'too-complex'): AppError =>
  kind === 'no-text'
    ? new AppError('NO_TEXT_FOUND', 'The page has no article text')
    : tooComplex('element limit');

/**
 * Reads the article of web pages (`extractArticle`) in a pool of `workers` worker threads,
 * started with the first read, so a large page does not hold up the service's event loop for
 * the seconds its parsing takes. Each page gets `limits.timeoutMs` and `limits.memoryMb`; past
 * either its thread is ended (and replaced) and the read fails with VALIDATION_FAILED, as it
 * does at once for a page with more than `limits.maxElements`. A page without text fails with
 * NO_TEXT_FOUND.
 */
export const createArticleReader = (options: ArticleReaderOptions = {}): ArticleReader => {
  const limits: ArticleLimits = { ...ARTICLE_LIMITS, ...options.limits };
  const pool = createBoundedPool<ArticleTask, ArticleTaskResult>({
    moduleUrl: import.meta.url,
    worker: 'article.worker',
    name: 'extractPage',
    threads: options.workers ?? 1,
    timeoutMs: limits.timeoutMs,
    memoryMb: limits.memoryMb,
    closedError,
    // The time limit, the heap limit or a crash in the parser: all the page's doing.
    failed: tooComplex,
  });

  return {
    async read(html, url, signal) {
      // As on the caller's thread: an address that is not one fails here, not as the page's fault.
      new URL(url);
      const { maxChars, maxElements } = limits;
      const result = await pool.run({ html, url, maxChars, maxElements }, signal ? { signal } : {});
      if (result.kind !== 'article') throw pageError(result.kind);
      return result.article;
    },
    close: () => pool.close(),
  };
};
