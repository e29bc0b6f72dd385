import { ARTICLE_LIMITS, pageError } from './article-reader.js';
import { extractPage, type Article } from './article.task.js';

export type { Article } from './article.task.js';

export interface ArticleOptions {
  /** Characters of Markdown kept. */
  maxChars?: number;
  /** Elements of a page (`elementCount`) read at most; none by default. */
  maxElements?: number;
}

/**
 * The article of a web page as Markdown (see `extractPage`), on the caller's thread, which it
 * blocks for as long as parsing takes: seconds for a large page. The service reads pages with
 * `createArticleReader`, which runs this in a worker thread. A page without text fails with
 * NO_TEXT_FOUND, one with more than `maxElements` with VALIDATION_FAILED.
 */
export const extractArticle = (
  html: string,
  url: string,
  options: ArticleOptions = {},
): Article => {
  const result = extractPage({
    html,
    url,
    maxChars: options.maxChars ?? ARTICLE_LIMITS.maxChars,
    ...(options.maxElements === undefined ? {} : { maxElements: options.maxElements }),
  });
  if (result.kind !== 'article') throw pageError(result.kind);
  return result.article;
};
