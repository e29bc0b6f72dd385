/**
 * Typo tolerance by edit distance, by the rule Meilisearch and Typesense use: a searched word
 * of at least 5 letters may stand for a word of the user's vocabulary within 1 edit, one of at
 * least 9 letters within 2, a shorter one only for itself. An edit inserts, deletes or
 * substitutes a letter, or swaps two adjacent ones (optimal string alignment distance).
 * Letters are Unicode code points, as Postgres's char_length counts them.
 */

/** The fewest letters a word needs for 1 typo, and for 2. */
export const ONE_TYPO_LETTERS = 5;
export const TWO_TYPOS_LETTERS = 9;

/**
 * The vocabulary keeps the words typo tolerance can use: of 4 letters at least (a 5-letter
 * word may be one letter longer than its correction), of 64 at most, not a number, and not in
 * a script written without spaces (Chinese, Japanese), whose "words" are whole phrases.
 * The vocabulary migration applies the same rule in SQL (note_words_of).
 */
const VOCABULARY_MAX_LETTERS = 64;
/** Han, kana and the CJK blocks around them; the SQL twin is in the vocabulary migration. */
const UNSPACED_SCRIPT = /[\u2E80-\u9FFF\uF900-\uFAFF\u{20000}-\u{3FFFF}]/u;
const NUMBER = /^[0-9]+$/;

export const lettersOf = (word: string) => Array.from(word).length;

/** How many typos a searched word may have: 0, 1 or 2. */
export const allowedTypos = (word: string): 0 | 1 | 2 => {
  const letters = lettersOf(word);
  if (letters > VOCABULARY_MAX_LETTERS || NUMBER.test(word) || UNSPACED_SCRIPT.test(word)) {
    return 0;
  }
  return letters >= TWO_TYPOS_LETTERS ? 2 : letters >= ONE_TYPO_LETTERS ? 1 : 0;
};

/**
 * The optimal string alignment distance of `a` and `b` when it is at most `max`, else
 * `max + 1`: rows of the dynamic programme stop as soon as none of their cells is within `max`.
 */
export const typoDistance = (a: string, b: string, max: number): number => {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const at = (row: number[], j: number) => row[j] ?? Number.POSITIVE_INFINITY;
  let beforeLast: number[] = [];
  let last = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const substitution = at(last, j - 1) + (s[i - 1] === t[j - 1] ? 0 : 1);
      let cell = Math.min(at(last, j) + 1, at(row, j - 1) + 1, substitution);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        cell = Math.min(cell, at(beforeLast, j - 2) + 1);
      }
      row.push(cell);
      best = Math.min(best, cell);
    }
    if (best > max) return max + 1;
    beforeLast = last;
    last = row;
  }
  return Math.min(at(last, t.length), max + 1);
};

/**
 * Where the database finds the candidates for `word`, the vocabulary words the distance is then
 * computed for: words of a length within `typos` of the word's, in one of `ranges` (each a range
 * of an index: words that begin with `begins`, whose reverse does, or whose letters from the
 * fifth on do), the `middle` letters at their place when given.
 *
 * Why nothing is missed: an edit changes at most two adjacent letters of the word (an
 * insertion counts as changing the letters on both sides of it).
 * - 1 typo: the word splits into head, one letter, tail. An edit touching the head ends by
 *   that letter, so the tail is whole: the candidate begins with the head or ends with the tail.
 * - 2 typos (9 letters or more): the candidate begins with the word's first two letters, unless
 *   an edit touches them; it ends with the last two, unless an edit touches those. When both
 *   are touched, one edit is within letters 1-3 and the other within the last three, so letters
 *   4 to n-3 (3 at least) are whole, moved by what the first edit added or removed: they are the
 *   candidate's letters from the 3rd, 4th or 5th, which its letters from the fifth begin with
 *   less their first two, less their first, or whole.
 */
export interface NearWords {
  minLetters: number;
  maxLetters: number;
  ranges: {
    key: 'word' | 'reversed' | 'fromFifth';
    begins: string;
    middle?: { letters: string; at: number };
  }[];
}

export const nearWords = (word: string, typos: 1 | 2): NearWords => {
  const letters = Array.from(word);
  const n = letters.length;
  const slice = (from: number, to: number) => letters.slice(from, to).join('');
  const reversed = (from: number, to: number) => letters.slice(from, to).reverse().join('');
  const lengths = { minLetters: n - typos, maxLetters: n + typos };
  if (typos === 1) {
    const split = Math.floor((n - 1) / 2);
    return {
      ...lengths,
      ranges: [
        { key: 'word', begins: slice(0, split) },
        { key: 'reversed', begins: reversed(split + 1, n) },
      ],
    };
  }
  const middle = slice(3, n - 3);
  return {
    ...lengths,
    ranges: [
      { key: 'word', begins: slice(0, 2) },
      { key: 'reversed', begins: reversed(n - 2, n) },
      // The middle from the candidate's letter 3, 4 or 5.
      ...[3, 4, 5].map((at) => ({
        key: 'fromFifth' as const,
        begins: slice(3 + 5 - at, n - 3),
        middle: { letters: middle, at },
      })),
    ],
  };
};

/** A word as a tsquery operand, whatever its characters: quoted, with ' and \ escaped. */
export const lexemeQuery = (word: string) =>
  `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The first string after every string that begins with `prefix`, in code point order. */
export const afterPrefix = (prefix: string): string | undefined => {
  const letters = Array.from(prefix);
  const last = letters.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return letters.join('') + String.fromCodePoint(next);
};
