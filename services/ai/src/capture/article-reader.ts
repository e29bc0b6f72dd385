import { AppError } from '@noted/api';
import { createSandbox, SandboxError, taskModule } from '@noted/sandbox';
// Types only: the parser's packages load in the sandbox's process, not here.
import type { Article, ArticleTask, ArticleTaskResult } from './article.task.js';

export type { Article } from './article.task.js';

export interface ArticleLimits {
  /** Characters of Markdown kept. */
  maxChars: number;
  /** Per page, from the moment its process begins it. */
  timeoutMs: number;
  /** Its process's resident memory, where the page's DOM is built. */
  memoryMb: number;
  /** Elements of a page (`elementCount`); a page with more is refused before it is parsed. */
  maxElements: number;
}

export const ARTICLE_LIMITS: ArticleLimits = {
  maxChars: 1_000_000,
  timeoutMs: 20_000,
  memoryMb: 320,
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
  /** Processes reading at once, default 1. */
  workers?: number;
  limits?: Partial<ArticleLimits>;
}

const tooComplex = (cause: string) =>
  Object.assign(new AppError('VALIDATION_FAILED', 'The page is too complex to read'), { cause });
const ARTICLE_TASK = taskModule(import.meta.url, 'article.task');

/** The error of a page that reads as no article, on either thread. */
export const pageError = (kind: 'no-text' | 'too-complex'): AppError =>
  kind === 'no-text'
    ? new AppError('NO_TEXT_FOUND', 'The page has no article text')
    : tooComplex('element limit');

/**
 * Reads the article of web pages (`extractArticle`) in a sandbox of `workers` processes,
 * started with the first read, so a large page never holds up the service for the seconds and
 * memory its parsing takes. Each page gets `limits.timeoutMs` and `limits.memoryMb`; past either
 * its process is killed and the read fails with VALIDATION_FAILED, as it does at once for a page
 * with more than `limits.maxElements`. A page without text fails with NO_TEXT_FOUND.
 */
export const createArticleReader = (options: ArticleReaderOptions = {}): ArticleReader => {
  const limits: ArticleLimits = { ...ARTICLE_LIMITS, ...options.limits };
  const sandbox = createSandbox({
    name: 'ai-article',
    processes: options.workers ?? 1,
    memoryMb: limits.memoryMb,
  });

  return {
    async read(html, url, signal) {
      // As in the caller's process: an address that is not one fails here, not as the page's.
      new URL(url);
      const { maxChars, maxElements } = limits;
      let result: ArticleTaskResult;
      try {
        result = await sandbox.run<ArticleTaskResult, ArticleTask>({
          module: ARTICLE_TASK,
          fn: 'extractPage',
          input: { html, url, maxChars, maxElements },
          label: 'article',
          timeoutMs: limits.timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        // The time limit, the memory cap or a crash in the parser: all the page's doing.
        if (error instanceof SandboxError && error.reason !== 'closed') {
          throw tooComplex(error.reason);
        }
        throw error;
      }
      if (result.kind !== 'article') throw pageError(result.kind);
      return result.article;
    },
    close: () => sandbox.close(),
  };
};
