import { stemmer } from 'stemmer';

export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also although always am among an and another any
  anybody anyone anything anyway are aren't around as at be became because become been before
  being below besides between both but by can can't cannot could couldn't did didn't do does
  doesn't doing don't done down during each either else enough etc even ever every everyone
  everything few for from further get gets getting got had hadn't has hasn't have haven't having
  he he'd he'll he's her here here's hers herself him himself his how how's however i i'd i'll
  i'm i've if in into is isn't it it's its itself just least less let's like made make many may
  me might more most much must mustn't my myself neither never no nobody none nor not nothing now
  of off often on once one only onto or other others otherwise ought our ours ourselves out over
  own per perhaps quite rather really same shall shan't she she'd she'll she's should shouldn't
  since so some somebody someone something sometimes still such than that that's the their theirs
  them themselves then there there's therefore these they they'd they'll they're they've thing
  things this those though through thus to too toward towards under until up upon us use used
  uses using very via was wasn't we we'd we'll we're we've were weren't what what's whatever when
  when's whenever where where's whereas wherever whether which while who who's whoever whom whose
  why why's will with within without won't would wouldn't yes yet you you'd you'll you're you've
  your yours yourself yourselves`.split(/\s+/),
);

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc';
const wordPattern = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{N}\p{M}]+(?:['-][\p{L}\p{N}\p{M}]+)*/gu;
const decimalNumber = /^\p{N}+(?:[.,]\p{N}+)+$/u;
const containsCjk = new RegExp(`[${CJK}]`, 'u');
const cjkOrOther = new RegExp(`[${CJK}]+|[^${CJK}]+`, 'gu');
const plainWord = /^[\p{L}\p{N}\p{M}]+$/u;

const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 50_000;

const stem = (word: string): string => {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return word;
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemmed = stemmer(word);
    stemCache.set(word, stemmed);
  }
  return stemmed;
};

/** One word as written and the search term it becomes; `term` is null for stop words. */
export interface AnalyzedWord {
  surface: string;
  term: string | null;
  /** Punctuation, a line break or a sentence end separates this word from the previous one. */
  breakBefore: boolean;
}

type WordVisitor = (surface: string, term: string | null, breakBefore: boolean) => void;

/** Walks the words of a text without building objects: tokenize runs on every note. */
const forEachWord = (text: string, visit: WordVisitor): void => {
  const normalized = text.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'");
  let previousEnd = -1;
  for (const match of normalized.matchAll(wordPattern)) {
    const word = match[0];
    const singleSpace =
      previousEnd === match.index - 1 && normalized.charCodeAt(previousEnd) === 32;
    const breakBefore =
      previousEnd < 0 ||
      (!singleSpace && /[^\s'"“”]|\n/.test(normalized.slice(previousEnd, match.index)));
    previousEnd = match.index + word.length;
    if (decimalNumber.test(word)) visit(word, word, breakBefore);
    else if (containsCjk.test(word)) visitMixedScripts(word, breakBefore, visit);
    else visitWord(word, breakBefore, visit);
  }
};

/** CJK runs become overlapping character bigrams; other scripts in the word stay words. */
const visitMixedScripts = (word: string, breakBefore: boolean, visit: WordVisitor): void => {
  let first = breakBefore;
  for (const [segment] of word.matchAll(cjkOrOther)) {
    if (containsCjk.test(segment)) {
      const chars = Array.from(segment);
      if (chars.length === 1) visit(segment, segment, first);
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i]! + chars[i + 1]!;
        visit(bigram, bigram, first && i === 0);
      }
    } else {
      const trimmed = segment.replace(/^['-]+|['-]+$/g, '');
      if (trimmed !== '') visitWord(trimmed, first, visit);
    }
    first = false;
  }
};

const visitWord = (word: string, breakBefore: boolean, visit: WordVisitor): void => {
  if (STOP_WORDS.has(word)) {
    visit(word, null, breakBefore);
    return;
  }
  if (plainWord.test(word)) {
    visit(word, keepsTerm(word) ? stem(word) : null, breakBefore);
    return;
  }
  // Hyphenated words count as their parts; apostrophes inside a part are dropped (rock'n'roll).
  let first = breakBefore;
  for (const part of word.replace(/'s$/, '').split('-')) {
    const joined = part.replace(/'/g, '');
    visit(part, !STOP_WORDS.has(part) && keepsTerm(joined) ? stem(joined) : null, first);
    first = false;
  }
};

/** Single Latin (or other alphabetic) letters say nothing; single digits do. */
const keepsTerm = (word: string): boolean =>
  word.length > 1 || (word.length === 1 && /\p{N}/u.test(word));

/**
 * Words in order with their terms: the finer-grained form of `tokenize` that keyword
 * extraction needs (surface forms and phrase boundaries).
 */
export const analyze = (text: string): AnalyzedWord[] => {
  const words: AnalyzedWord[] = [];
  forEachWord(text, (surface, term, breakBefore) => words.push({ surface, term, breakBefore }));
  return words;
};

/** Search terms of a text: stop words dropped, English stemmed, CJK as character bigrams. */
export const tokenize = (text: string): string[] => {
  const tokens: string[] = [];
  forEachWord(text, (_surface, term) => {
    if (term !== null) tokens.push(term);
  });
  return tokens;
};

/**
 * Words about the act of taking notes, not about what a note holds ("What did I write about
 * …?", "my notes on …"): left out of a query's words. Kept, a word no note holds (often
 * "write") counts as the rarest of all and halves what the query's real subject weighs, so a
 * note holding that subject gains nothing from its words.
 */
const NOTE_TAKING = new Set(
  tokenize('write wrote written writing note notes noted jot jotted mention mentioned say said'),
);

/** A query's words as the ranking weighs them: without `NOTE_TAKING` words, unless only those. */
export const queryTokens = (text: string): string[] => {
  const tokens = tokenize(text);
  const about = tokens.filter((token) => !NOTE_TAKING.has(token));
  return about.length > 0 ? about : tokens;
};
