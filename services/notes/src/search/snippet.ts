import { plainText, sentences } from '@noted/kit';
import { SEARCHED_BODY_CHARS } from './migration.js';

/** About how long a snippet is: two lines of the list's text. */
const SNIPPET_CHARS = 200;
/** How much comes before a match that a long sentence would start too far ahead of. */
const LEAD_CHARS = 60;

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decode = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => entities[name]!);
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[char]};`,
  );

/** The words a search headline marks (Postgres found them: prefixes, corrections and all). */
export const markedWords = (...headlines: (string | null)[]): string[] => {
  const words = new Set<string>();
  for (const headline of headlines) {
    for (const [, word] of (headline ?? '').matchAll(/<mark>(.*?)<\/mark>/g)) {
      const decoded = decode(word ?? '')
        .trim()
        .toLowerCase();
      if (decoded) words.add(decoded);
    }
  }
  return [...words];
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Scripts written without spaces: a word there is found inside a longer run of letters.
const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** A pattern finding each word as a whole word (inside a run of letters in unspaced scripts). */
const wordsPattern = (words: string[]) =>
  new RegExp(
    [...words]
      .sort((a, b) => b.length - a.length)
      .map((word) =>
        unspaced.test(word)
          ? escapeRegExp(word)
          : `(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`,
      )
      .join('|'),
    'giu',
  );

/** Cuts `text` at the last space before `at` (or at `at` in a text without spaces there). */
const cutAt = (text: string, at: number) => {
  if (text.length <= at) return text;
  const space = text.lastIndexOf(' ', at);
  return `${text.slice(0, space > at / 2 ? space : at).trimEnd()}…`;
};

/**
 * A search hit's snippet: the note as a reader sees it (no Markdown), from the start of the
 * first sentence holding a searched word, about two lines long, HTML-escaped with the words in
 * <mark>. A match deep into a long sentence starts the snippet a little before it, after "…".
 * Undefined when the text holds none of the words.
 */
export const searchSnippet = (body: string, words: string[]): string | undefined => {
  if (words.length === 0) return undefined;
  const pattern = wordsPattern(words);
  const found = (sentence: string) => {
    pattern.lastIndex = 0;
    return pattern.exec(sentence)?.index;
  };
  const all = sentences(plainText(body.slice(0, SEARCHED_BODY_CHARS)));
  const first = all.findIndex((sentence) => found(sentence) !== undefined);
  if (first < 0) return undefined;

  let text = all[first]!;
  const at = found(text)!;
  if (at > SNIPPET_CHARS - LEAD_CHARS) {
    const space = text.indexOf(' ', at - LEAD_CHARS);
    text = `…${text.slice(space >= 0 && space < at ? space + 1 : at - LEAD_CHARS)}`;
  }
  for (const next of all.slice(first + 1)) {
    // A line without its own stop (a list item, a heading) is set apart from the next.
    const joined = /[。！？」』]$/u.test(text)
      ? `${text}${next}`
      : /\p{P}$/u.test(text)
        ? `${text} ${next}`
        : `${text} · ${next}`;
    if (joined.length > SNIPPET_CHARS) break;
    text = joined;
  }
  text = cutAt(text, SNIPPET_CHARS);

  let html = '';
  let from = 0;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    html += `${escapeHtml(text.slice(from, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    from = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(from));
};
