import { analyze, type AnalyzedWord } from './text.js';
import { plainText, sentences } from '@noted/kit';

const DAMPING = 0.85;
const MAX_ITERATIONS = 30;
const CONVERGENCE = 1e-6;
const COOCCURRENCE_WINDOW = 3;
const MAX_PHRASE_WORDS = 3;
// CJK terms are character bigrams: four of them spell a five-character word.
const MAX_CJK_PHRASE_TERMS = 4;
const MAX_TAG_LENGTH = 64;
const TITLE_LENGTH = 60;

export interface KeywordCorpus {
  documents: number;
  /** How many documents contain a term (a token as `tokenize` makes it). */
  documentFrequency: (token: string) => number;
}

interface Candidate {
  terms: string[];
  score: number;
  firstSeen: number;
}

/** Runs of content words between stop words and punctuation: where keyphrases can be. */
const contentRuns = (words: AnalyzedWord[]): AnalyzedWord[][] => {
  const runs: AnalyzedWord[][] = [];
  let run: AnalyzedWord[] = [];
  for (const word of words) {
    if (word.breakBefore && run.length > 0) {
      runs.push(run);
      run = [];
    }
    if (word.term !== null && isKeywordTerm(word)) run.push(word);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
};

/** Numbers say little about what a text is about, nor do bigrams with Japanese particles (kana). */
const isKeywordTerm = (word: AnalyzedWord): boolean =>
  !/^[\p{N}.,]+$/u.test(word.surface) && !/\p{Script=Hiragana}/u.test(word.surface);

/** TextRank over a co-occurrence graph of terms (Mihalcea and Tarau, 2004). */
const rankTerms = (runs: AnalyzedWord[][]): Map<string, number> => {
  const neighbours = new Map<string, Map<string, number>>();
  const link = (a: string, b: string): void => {
    if (a === b) return;
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      let edges = neighbours.get(from);
      if (!edges) {
        edges = new Map();
        neighbours.set(from, edges);
      }
      edges.set(to, (edges.get(to) ?? 0) + 1);
    }
  };
  // As in TextRank, stop words are filtered out first and the window slides over what is left.
  const sequence = runs.flat().map((word) => word.term!);
  for (let i = 0; i < sequence.length; i++) {
    if (!neighbours.has(sequence[i]!)) neighbours.set(sequence[i]!, new Map());
    for (let j = i + 1; j < Math.min(sequence.length, i + COOCCURRENCE_WINDOW); j++) {
      link(sequence[i]!, sequence[j]!);
    }
  }

  let scores = new Map<string, number>();
  for (const term of neighbours.keys()) scores.set(term, 1);
  const outWeight = new Map<string, number>();
  for (const [term, edges] of neighbours) {
    let total = 0;
    for (const weight of edges.values()) total += weight;
    outWeight.set(term, total);
  }
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = new Map<string, number>();
    for (const term of neighbours.keys()) next.set(term, 1 - DAMPING);
    for (const [term, edges] of neighbours) {
      const total = outWeight.get(term)!;
      if (total === 0) continue;
      const share = (DAMPING * scores.get(term)!) / total;
      for (const [to, weight] of edges) next.set(to, next.get(to)! + share * weight);
    }
    let change = 0;
    for (const [term, score] of next)
      change = Math.max(change, Math.abs(score - scores.get(term)!));
    scores = next;
    if (change < CONVERGENCE) break;
  }
  return scores;
};

/** The most frequent way each term (or term sequence) is written; first seen wins a tie. */
const surfaceForms = (runs: AnalyzedWord[][]): Map<string, string> => {
  const counts = new Map<string, Map<string, number>>();
  const count = (key: string, surface: string): void => {
    let forms = counts.get(key);
    if (!forms) {
      forms = new Map();
      counts.set(key, forms);
    }
    forms.set(surface, (forms.get(surface) ?? 0) + 1);
  };
  for (const run of runs) {
    for (let i = 0; i < run.length; i++) {
      for (let length = 1; length <= MAX_CJK_PHRASE_TERMS && i + length <= run.length; length++) {
        const words = run.slice(i, i + length);
        count(phraseKey(words.map((word) => word.term!)), joinSurface(words));
      }
    }
  }
  const best = new Map<string, string>();
  for (const [key, forms] of counts) {
    let bestForm = '';
    let bestCount = 0;
    for (const [form, formCount] of forms) {
      if (formCount > bestCount) {
        bestForm = form;
        bestCount = formCount;
      }
    }
    best.set(key, bestForm);
  }
  return best;
};

const isCjk = (term: string): boolean =>
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+$/u.test(term);

const phraseKey = (terms: string[]): string => terms.join(' ');

/** CJK bigrams overlap by one character, so a run of them is written without repeating it. */
const joinSurface = (words: AnalyzedWord[]): string =>
  words.reduce((text, word, i) => {
    if (i === 0) return word.surface;
    const previous = words[i - 1]!.surface;
    const bigrams = isCjk(previous) && isCjk(word.surface) && previous.length === 2;
    return bigrams && previous.at(-1) === word.surface[0]
      ? text + word.surface.slice(1)
      : `${text} ${word.surface}`;
  }, '');

/**
 * The words and phrases most characteristic of a text, in lower case as written: TextRank over
 * term co-occurrence, weighted by rarity when a corpus is given; adjacent top words form phrases.
 */
export const keywords = (
  text: string,
  options: { limit: number; corpus?: KeywordCorpus },
): string[] => {
  if (options.limit <= 0) return [];
  const runs = contentRuns(analyze(plainText(text)));
  if (runs.length === 0) return [];
  const termScores = rankTerms(runs);
  const { corpus } = options;
  if (corpus) {
    for (const [term, score] of termScores) {
      const frequency = Math.min(corpus.documentFrequency(term), corpus.documents);
      termScores.set(term, score * Math.log(1 + (corpus.documents + 1) / (frequency + 1)));
    }
  }

  // As in TextRank, only the top third of terms can join into phrases.
  const ordered = [...termScores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const topCount = Math.max(options.limit, Math.ceil(ordered.length / 3));
  const topTerms = new Set(ordered.slice(0, topCount).map(([term]) => term));

  const candidates = new Map<string, Candidate>();
  const counts = new Map<string, number>();
  let position = 0;
  const see = (terms: string[], offer = true): void => {
    const key = phraseKey(terms);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (offer && !candidates.has(key)) {
      candidates.set(key, { terms, score: 0, firstSeen: position });
    }
  };
  for (const run of runs) {
    const terms = run.map((word) => word.term!);
    for (let i = 0; i < terms.length; i++, position++) {
      const term = terms[i]!;
      if (isCjk(term)) {
        // A run of CJK bigrams is one word between particles: offer it whole, not its pieces.
        let start = i;
        while (start > 0 && isCjk(terms[start - 1]!)) start--;
        let end = i + 1;
        while (end < terms.length && isCjk(terms[end]!)) end++;
        see([term], end - start === 1);
        if (start === i && end - i >= 2 && end - i <= MAX_CJK_PHRASE_TERMS) {
          see(terms.slice(i, end));
        }
        continue;
      }
      see([term]);
      if (!topTerms.has(term)) continue;
      const phrase = [term];
      for (let j = i + 1; j < terms.length && phrase.length < MAX_PHRASE_WORDS; j++) {
        const next = terms[j]!;
        if (!topTerms.has(next) || isCjk(next) || phrase.includes(next)) break;
        phrase.push(next);
        see([...phrase]);
      }
    }
  }
  // A phrase seen once in a long text is chance; in a short note it is all there is.
  const minimumPhraseCount = position < 80 ? 1 : 2;
  for (const [key, candidate] of candidates) {
    const count = counts.get(key)!;
    if (candidate.terms.length === 1) {
      candidate.score = termScores.get(key)!;
    } else if (count < minimumPhraseCount) {
      candidates.delete(key);
    } else {
      // Its words' scores, scaled by how often they occur as this phrase rather than apart.
      const wordCount = Math.max(...candidate.terms.map((term) => counts.get(term)!));
      const sum = candidate.terms.reduce((total, term) => total + termScores.get(term)!, 0);
      candidate.score = (sum * count) / wordCount;
    }
  }

  const surfaces = surfaceForms(runs);
  const chosen: Candidate[] = [];
  const coveredTerms = new Set<string>();
  const ranked = [...candidates.values()].sort(
    (a, b) => b.score - a.score || a.firstSeen - b.firstSeen,
  );
  for (const candidate of ranked) {
    if (chosen.length >= options.limit) break;
    const covered = candidate.terms.filter((term) => coveredTerms.has(term)).length;
    if (covered === candidate.terms.length) continue;
    // A phrase replaces a chosen word it contains when the word occurs mostly in the phrase.
    const phraseCount = counts.get(phraseKey(candidate.terms))!;
    for (let i = chosen.length - 1; i >= 0; i--) {
      const [word, ...rest] = chosen[i]!.terms;
      if (rest.length > 0 || !candidate.terms.includes(word!)) continue;
      if (phraseCount * 2 >= counts.get(word!)!) chosen.splice(i, 1);
    }
    chosen.push(candidate);
    for (const term of candidate.terms) coveredTerms.add(term);
  }
  const result: string[] = [];
  for (const candidate of chosen) {
    const surface = surfaces.get(phraseKey(candidate.terms));
    if (surface && !result.includes(surface)) result.push(surface);
  }
  return result;
};

/** A tag as the notes API accepts it: no spaces, commas or '#', at most 64 characters. */
const asTag = (phrase: string): string =>
  phrase
    .toLowerCase()
    .replace(/[#,]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, MAX_TAG_LENGTH)
    .replace(/-+$/, '');

const tagTerms = (tag: string): string[] =>
  analyze(tag.replace(/[-_/.]+/g, ' '))
    .map((word) => word.term)
    .filter((term): term is string => term !== null);

/**
 * Words that say how much, how long, when or how, not what about: they may be a text's keywords
 * but never its topic (a PDF tagged #percent, Summaries listing "minutes").
 */
const NOT_TOPICS: ReadonlySet<string> = new Set(
  `zero two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
  sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion
  billions first second third fourth fifth last next half quarter dozen couple several
  percent percentage total number numbers amount lot lots bit second seconds minute minutes hour
  hours day days week weeks weekend month months year years time times today tomorrow yesterday
  tonight morning afternoon evening night monday tuesday wednesday thursday friday saturday
  sunday january february march april june july august september october november december new
  old good great big small little long short high low top best better way ways part parts kind
  sort type example people person stuff idea ideas note notes`.split(/\s+/),
);

/**
 * Verbs as they start or end a fragment of a sentence rather than name a topic ("revenue
 * grew", "buy milk"): a new tag holds none of them.
 */
const VERBS: ReadonlySet<string> = new Set(
  `be go goes went come comes came get gets got take takes took give gives gave find finds found
  tell tells told ask asks asked say says said know knows knew think thinks thought see sees saw
  look looks want wants need needs like likes begin began keep keeps kept hold holds held write
  writes wrote bring brings brought buy buys bought pay pays paid send sends sent spend spends
  spent build builds built lose loses lost fall falls fell rise rises rose run runs ran meet
  meets met leave leaves left feel feels felt become becomes seem seems happen happens try tries
  move moves show shows call calls help helps start starts stop stops grow grows grew increase
  increases decrease decreases improve improves drop drops pick picks check checks remember
  remembers order orders visit visits finish finishes clean cleans cook cooks read reads put
  puts set sets let lets told add adds make makes`.split(/\s+/),
);

/** A past tense (discussed) or an adverb (quickly) is not a topic; speed and seed are. */
const verbOrAdverb = (word: string): boolean =>
  VERBS.has(word) || (word.length > 4 && /(?<!e)ed$|ly$/.test(word));

/** Content words a text needs before it has a topic of its own: a shopping list has none. */
const MIN_WORDS_FOR_NEW_TAGS = 40;
/** Words a new tag may have: three are a fragment of a sentence (#two-senior-engineers). */
const MAX_NEW_TAG_WORDS = 2;

/**
 * Whether a keyphrase of the text is clearly a topic: a name or a noun phrase of one or two
 * words, no number, no measure, no verb, met at least twice; a phrase's words are met mostly
 * together (a phrase met twice among five mentions of its first word is chance).
 */
const isTopic = (phrase: string, words: AnalyzedWord[], minimumCount = 2): boolean => {
  const surfaces = phrase.split(/\s+/);
  if (surfaces.length > MAX_NEW_TAG_WORDS) return false;
  if (surfaces.some((word) => /\p{N}/u.test(word) || NOT_TOPICS.has(word))) return false;
  if (!isCjk(surfaces.join('')) && surfaces.some(verbOrAdverb)) return false;
  const terms = tagTerms(phrase);
  if (terms.length === 0) return false;
  let together = 0;
  const apart = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    const term = words[i]!.term;
    if (term !== null && terms.includes(term)) apart.set(term, (apart.get(term) ?? 0) + 1);
    if (terms.every((t, j) => words[i + j]?.term === t && (j === 0 || !words[i + j]!.breakBefore)))
      together++;
  }
  if (together < minimumCount) return false;
  return terms.length === 1 || together * 2 >= Math.max(...apart.values());
};

/**
 * The keyphrases of a text that are clearly topical (`isTopic`), best first; a phrase that is
 * not ("revenue grew") gives way to those of its words that are, and are met often enough to
 * stand alone ("revenue", not "senior").
 */
const topicalPhrases = (text: string, words: AnalyzedWord[], limit: number): string[] => {
  const topics: string[] = [];
  const covered = new Set<string>();
  for (const phrase of keywords(text, { limit: limit * 3 })) {
    const parts = phrase.split(/\s+/);
    const options = parts.length > 1 && !isCjk(parts.join('')) ? [phrase, ...parts] : [phrase];
    for (const option of options) {
      // One topic per word: #subscription and #subscription-plans say the same.
      const terms = tagTerms(option);
      if (terms.some((term) => covered.has(term))) continue;
      if (!isTopic(option, words, option === phrase ? 2 : 3)) continue;
      topics.push(option);
      for (const term of terms) covered.add(term);
      if (option === phrase) break;
    }
  }
  return topics;
};

/** The topics of a text, at most `limit`: its clearly topical keyphrases. */
export const topicsFor = (text: string, options: { limit: number }): string[] =>
  options.limit <= 0
    ? []
    : topicalPhrases(text, analyze(plainText(text)), options.limit).slice(0, options.limit);

/**
 * Tag suggestions for a text, at most `limit`: the user's existing tags that it mentions (most
 * mentioned first), then the existing tags its nearest notes share (`neighbourTags`, found by
 * the caller), then hashtags written in it, and only then new tags, when clearly topical
 * (`isTopic`) in a text long enough to have a topic.
 */
export const tagsFor = (
  text: string,
  options: { limit: number; existingTags?: string[]; neighbourTags?: string[] },
): string[] => {
  if (options.limit <= 0) return [];
  const plain = plainText(text);
  const words = analyze(plain);
  const termCounts = new Map<string, number>();
  for (const word of words) {
    if (word.term !== null) termCounts.set(word.term, (termCounts.get(word.term) ?? 0) + 1);
  }
  const hashtags = new Set(
    Array.from(
      text.normalize('NFKC').matchAll(/(?:^|\s)#([\p{L}\p{N}_-]*\p{L}[\p{L}\p{N}_-]*)/gu),
    ).map((match) => match[1]!.toLowerCase()),
  );

  const mentioned: { tag: string; mentions: number; order: number }[] = [];
  (options.existingTags ?? []).forEach((tag, order) => {
    const terms = tagTerms(tag);
    const explicit = hashtags.has(tag.toLowerCase());
    if (terms.length === 0 && !explicit) return;
    const mentions = Math.min(...terms.map((term) => termCounts.get(term) ?? 0));
    if (mentions > 0 || explicit) {
      mentioned.push({ tag, mentions: explicit ? Infinity : mentions, order });
    }
  });
  mentioned.sort((a, b) => b.mentions - a.mentions || a.order - b.order);

  const tags: string[] = [];
  const seen = new Set<string>();
  const push = (tag: string, key: string): void => {
    if (tag === '' || seen.has(key) || tags.length >= options.limit) return;
    if (/[\s,#]/.test(tag) || tag.length > MAX_TAG_LENGTH) return;
    seen.add(key);
    tags.push(tag);
  };
  const keyOf = (tag: string) => tagTerms(tag).join(' ') || tag.toLowerCase();
  for (const { tag } of mentioned) push(tag, keyOf(tag));
  for (const tag of options.neighbourTags ?? []) push(tag, keyOf(tag));
  for (const hashtag of hashtags) push(asTag(hashtag), keyOf(hashtag));
  if (tags.length >= options.limit) return tags;
  const contentWords = words.filter((word) => word.term !== null).length;
  if (contentWords < MIN_WORDS_FOR_NEW_TAGS) return tags;
  for (const phrase of topicalPhrases(text, words, options.limit)) {
    push(asTag(phrase), keyOf(asTag(phrase)));
  }
  return tags;
};

/**
 * A short title for a note: its first heading, else its first sentence cut to about 60
 * characters at a word, else its top keywords.
 */
export const titleFor = (text: string): string => {
  const prose = withoutFencedCode(text);
  const heading = /^\s{0,3}#{1,6}\s+(.*\S.*)$/m.exec(prose)?.[1];
  const headingText = heading === undefined ? '' : plainText(heading);
  if (headingText !== '') return shorten(headingText);
  const first = sentences(plainText(prose)).find((sentence) => /\p{L}/u.test(sentence));
  if (first) return shorten(first.replace(/[.!?。！？:;,]+$/u, ''));
  const top = keywords(text, { limit: 3 });
  return top.length > 0 ? shorten(top.join(' ')) : '';
};

const shorten = (text: string): string => {
  if (text.length <= TITLE_LENGTH) return text;
  const cut = text.slice(0, TITLE_LENGTH + 1);
  const wordEnd = cut.lastIndexOf(' ');
  const short = wordEnd > TITLE_LENGTH / 2 ? cut.slice(0, wordEnd) : text.slice(0, TITLE_LENGTH);
  return short.replace(/[\s.,;:!?-]+$/u, '');
};

/** Markdown without its fenced code blocks: a comment in code is not a heading. */
const withoutFencedCode = (markdown: string): string => {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && fenceMark) fence = fenceMark;
    else if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
    } else kept.push(line);
  }
  return kept.join('\n');
};
