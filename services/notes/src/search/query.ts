/**
 * What the database is asked for one search text. `words` goes to websearch_to_tsquery as the
 * user wrote it; `prefix` (letters and digits only, so it is a valid to_tsquery operand) makes
 * the word being typed match longer words, joined to the rest with `and` or, after `or`, `or`.
 */
export interface SearchTerms {
  words: string;
  prefix?: { term: string; join: 'and' | 'or' };
  /** The plain words typo tolerance may correct (typos.ts): no quotes, no exclusions, no `or`. */
  similar: string;
  /** Words written as `-word`: typo tolerance never corrects them. */
  excluded: string;
}

const plainWord = /^[\p{L}\p{N}]+$/u;

export const searchTerms = (text: string): SearchTerms => {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const similar = tokens
    .filter((token) => !token.startsWith('-') && token.toLowerCase() !== 'or')
    .map((token) => token.replaceAll('"', ''))
    .filter(Boolean)
    .join(' ');
  const excluded = tokens
    .filter((token) => token.startsWith('-'))
    .map((token) => token.replaceAll(/^-+|"/g, ''))
    .filter(Boolean)
    .join(' or ');
  const last = tokens.at(-1) ?? '';
  const insideQuotes = (text.match(/"/g)?.length ?? 0) % 2 === 1;
  if (insideQuotes || !plainWord.test(last) || last.toLowerCase() === 'or') {
    return { words: tokens.join(' '), similar, excluded };
  }
  const before = tokens.slice(0, -1);
  const join = before.at(-1)?.toLowerCase() === 'or' ? 'or' : 'and';
  return {
    words: (join === 'or' ? before.slice(0, -1) : before).join(' '),
    prefix: { term: `${last}:*`, join },
    similar,
    excluded,
  };
};
