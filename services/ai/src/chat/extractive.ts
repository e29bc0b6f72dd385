import type { NoteRef } from '@noted/api';
import { dot, hashedEmbedding } from '../local/embeddings.js';
import {
  markdownBlocks,
  paragraphSentences,
  sameText,
  wordCount,
  type Block,
} from '../local/structure.js';
import { tokenize } from '../local/text.js';

/** Notes an answer reads: the first ones retrieval finds, as many as search's recall@5 counts. */
export const PASSAGE_NOTES = 5;
/** Chunks of one note an answer reads, at most: its best in the ranking. */
const CHUNKS_PER_NOTE = 2;

/**
 * The chunks an answer reads, note by note in retrieval's order (`retrieveNotes`, as search
 * ranks them), each note's best first: a question the notes do not answer finds no notes, and
 * gets no passages rather than the least unrelated ones.
 */
export const passageChunks = (
  notes: { noteId: string; chunks: number[]; score?: number }[],
): { noteId: string; index: number; score?: number }[] =>
  notes
    .slice(0, PASSAGE_NOTES)
    .flatMap(({ noteId, chunks, score }) =>
      chunks.slice(0, CHUNKS_PER_NOTE).map((index) => ({ noteId, index, score })),
    );

/** Sentences quoted by an answer made without a model, at most. */
export const QUOTED = 4;
/** A sentence shorter than this (in words) is quoted with its neighbour or its heading. */
const FRAGMENT_WORDS = 6;
/** Lines of one code block that may be quoted: a long listing is not read line by line. */
const CODE_LINES = 12;
/*
 * The weights below were chosen on the fixture corpus (npm run eval:chat): retrieval's order
 * of the notes is the strongest single sign of the answering note. Its scores pick the notes
 * quoted (`quotedNotes`); the sentence's meaning picks the sentences, and the notes too when
 * the passages come without scores.
 */
/** How much holding all of the question's words adds to the meaning's cosine. */
const WORDS_WEIGHT = 0.2;
/** What each place further down the retrieval ranking costs a sentence of that note. */
const RANK_PENALTY = 0.08;
/**
 * Notes whose sentences are judged: those of the first passages. A note further down would
 * need a cosine far above the best one's to make up for its place (RANK_PENALTY each).
 */
const CANDIDATE_NOTES = 4;
/** A sentence is quoted only when its score is at least this share of the best one's. */
const RELATIVE_THRESHOLD = 0.9;
/**
 * A note whose retrieval score is at least this share of the first note's is one retrieval
 * cannot tell from it, and is quoted too. On the fixture corpus (npm run eval:chat), when the
 * second note scores within a tenth of the first, the first answers only 35% of those 87
 * questions, against 61% within a fifth and 92% beyond; the sentences' own meaning picks the
 * answering note among such notes no better than their order does. Quoting them raised the
 * answers citing an answering note from 65.7% to 72.8%, at a cost: those citing only answering
 * notes fell from 60.7% to 53.6%, and notes cited rose from 1.10 to 1.55 an answer.
 */
const CLOSE_SCORE = 0.9;
/** Notes quoted at most, the first included, however many retrieval scores alike. */
const CLOSE_NOTES = 3;
/**
 * A note this short (pieces, characters) is quoted whole once any of it is chosen: picking one
 * of its two or three sentences risks the wrong one ("Next service at 60,000 km." for what the
 * car cost, beside "New brake pads: $340."), and the whole costs the reader no more.
 */
const SHORT_NOTE = { pieces: 3, chars: 240 };

export interface Passage {
  number: number;
  note: NoteRef;
  text: string;
  /** The chunk of the note the passage is: later chunks begin with the tail of the one before. */
  chunk?: number;
  /**
   * The note's score in retrieval's ranking (its best chunk's); undefined for a note retrieval
   * did not score (written a moment ago, found by its words before it is indexed).
   */
  score?: number;
}

/** Vectors for texts, in order (unit length), by the provider's embedding model. */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

/** A piece of a passage that can be quoted, and the text its meaning is judged by. */
export interface Quotable {
  passage: Passage;
  /** The note's place in the retrieval ranking (0 for the note of the first passage). */
  noteRank: number;
  /** Order in its passage. */
  order: number;
  /** What the answer quotes: the sentence, with its neighbour or its heading when a fragment. */
  quote: string;
  /** The quote with the headings above it: what it is about. */
  meaning: string;
}

export interface ExtractiveAnswer {
  text: string;
  citations: NoteRef[];
  /** How the sentences were judged: by the provider's embeddings, or hashed vectors without. */
  scoring: 'embeddings' | 'hashed';
}

const withContext = (context: string | null, text: string) =>
  context && !sameText(context, text) ? `${context}: ${text}` : text;

/** What a piece's vector is made of: its meaning in the note's title's context. */
export const embeddedText = (piece: Quotable): string =>
  withContext(piece.passage.note.title.trim() || null, piece.meaning);

/**
 * The first line of a later chunk starts with the previous chunk's last words run together on
 * one line ("… filter - [ ] Test alarms"): its Markdown is put back on lines of their own, and
 * a sentence cut at its start is dropped.
 */
const repairOverlap = (body: string): string => {
  const newline = body.indexOf('\n');
  const first = newline < 0 ? body : body.slice(0, newline);
  const rest = newline < 0 ? '' : body.slice(newline);
  const lines = first
    .split(/\s+(?=(?:[-*+]|\d{1,9}[.)])\s+\S|#{1,6}\s+\S)/)
    .filter((line, i) => i > 0 || !/^\p{Ll}/u.test(line.trim()));
  return lines.join('\n') + rest;
};

/** The body of a passage: its chunk without the note's title on the first line. */
const bodyOf = (passage: Passage): string => {
  const newline = passage.text.indexOf('\n');
  const first = newline < 0 ? passage.text : passage.text.slice(0, newline);
  const body =
    passage.note.title.trim() !== '' && sameText(first, passage.note.title)
      ? newline < 0
        ? ''
        : passage.text.slice(newline + 1)
      : passage.text;
  return (passage.chunk ?? 0) > 0 ? repairOverlap(body) : body;
};

const quotablesOfBlock = (block: Block, title: string): { quote: string; meaning: string }[] => {
  const heading = block.heading && !sameText(block.heading, title) ? block.heading : null;
  const about = (text: string) => withContext(heading, text);
  switch (block.kind) {
    case 'heading':
      return [];
    case 'paragraph': {
      const found = paragraphSentences(block.lines);
      return found.map((sentence, i) => {
        if (wordCount(sentence) >= FRAGMENT_WORDS || found.length === 1) {
          return { quote: sentence, meaning: about(sentence) };
        }
        // "Worth it." says something only after the sentence before it.
        const quote = i > 0 ? `${found[i - 1]} ${sentence}` : `${sentence} ${found[i + 1]}`;
        return { quote, meaning: about(quote) };
      });
    }
    case 'list':
      return block.items.map((item) => {
        const context = item.parent ?? block.lead ?? heading;
        const quote =
          wordCount(item.text) < FRAGMENT_WORDS || item.parent
            ? withContext(context, item.text)
            : item.text;
        const outer = item.parent ? (block.lead ?? heading) : block.lead ? heading : null;
        return { quote, meaning: withContext(outer, withContext(context, item.text)) };
      });
    case 'table':
      return block.rows.map((row) => {
        const quote =
          block.header.length === row.length
            ? row.map((cell, i) => withContext(block.header[i] || null, cell)).join('; ')
            : row.join(', ');
        return { quote, meaning: about(quote) };
      });
    case 'code':
      return block.lines
        .filter((line) => /[\p{L}\p{N}]/u.test(line))
        .slice(0, CODE_LINES)
        .map((line) => {
          const code = line.trim();
          const quote = `\`${code.replace(/`/g, "'")}\``;
          return { quote, meaning: about(code) };
        });
  }
};

/**
 * Every quotable piece of the passages of the first `notes` notes, once per note (chunks
 * overlap).
 */
export const quotables = (passages: Passage[], notes = CANDIDATE_NOTES): Quotable[] => {
  const noteRanks = new Map<string, number>();
  for (const passage of passages) {
    if (!noteRanks.has(passage.note.id)) noteRanks.set(passage.note.id, noteRanks.size);
  }
  const found: Quotable[] = [];
  const seen = new Map<string, string[]>();
  for (const passage of passages) {
    if (noteRanks.get(passage.note.id)! >= notes) continue;
    const pieces = markdownBlocks(bodyOf(passage)).flatMap((block) =>
      quotablesOfBlock(block, passage.note.title),
    );
    const ofNote = seen.get(passage.note.id) ?? [];
    seen.set(passage.note.id, ofNote);
    for (const [order, piece] of pieces.entries()) {
      if (!/[\p{L}\p{N}]/u.test(piece.quote)) continue;
      // The overlap of two chunks of a note is quoted once.
      if (ofNote.some((quote) => quote.includes(piece.quote))) continue;
      ofNote.push(piece.quote);
      found.push({ passage, noteRank: noteRanks.get(passage.note.id)!, order, ...piece });
    }
  }
  // A shorter piece that a longer one of the same note holds (a tail cut by the overlap) goes.
  return found.filter(
    (piece) =>
      !found.some(
        (other) =>
          other !== piece &&
          other.passage.note.id === piece.passage.note.id &&
          other.quote.length > piece.quote.length &&
          other.quote.includes(piece.quote),
      ),
  );
};

export interface ScoredQuotable extends Quotable {
  score: number;
}

/**
 * How well each piece answers the question: the cosine of its vector (`embeddedText`) and the
 * question's, plus a share for the question's words its meaning holds, less a little per place
 * its note is further down the retrieval ranking.
 */
export const scoreQuotables = (
  question: string,
  pieces: Quotable[],
  questionVector: Float32Array,
  vectors: Float32Array[],
): ScoredQuotable[] => {
  const asked = new Set(tokenize(question));
  return pieces.map((piece, i) => {
    const words = new Set(tokenize(piece.meaning));
    let shared = 0;
    for (const word of asked) if (words.has(word)) shared++;
    const lexical = asked.size === 0 ? 0 : shared / asked.size;
    const meaning = dot(vectors[i]!, questionVector);
    return {
      ...piece,
      score: meaning + WORDS_WEIGHT * lexical - RANK_PENALTY * piece.noteRank,
    };
  });
};

/**
 * The notes an answer quotes when retrieval scored the passages: the first note and the next
 * ones scored nearly as high (CLOSE_SCORE), at most CLOSE_NOTES, in retrieval's order; a note
 * it did not score counts as close. Undefined when no passage has a score: the sentences'
 * meaning alone then picks the notes.
 */
export const quotedNotes = (passages: Passage[]): string[] | undefined => {
  const scores = passages.flatMap((passage) =>
    passage.score === undefined ? [] : [passage.score],
  );
  if (scores.length === 0) return undefined;
  const best = Math.max(...scores);
  const close = passages.filter(
    (passage) => passage.score === undefined || passage.score >= best * CLOSE_SCORE,
  );
  return [...new Set(close.map((passage) => passage.note.id))].slice(0, CLOSE_NOTES);
};

/**
 * The pieces an answer quotes: the best one and those close to it (a share of its score), at
 * most QUOTED, so an answer does not pad itself with notes that only share a word or two. Given
 * `notes` (`quotedNotes`), only their pieces, and each note's best one whatever its score:
 * retrieval vouches for the note, and it is cited once it is quoted.
 */
export const chooseQuotes = (scored: ScoredQuotable[], notes?: string[]): ScoredQuotable[] => {
  const ranked = scored
    .filter((piece) => (notes ? notes.includes(piece.passage.note.id) : piece.score > 0))
    .sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (!best) return [];
  const chosen: ScoredQuotable[] = [];
  // A sentence two notes share, or one a chosen quote already holds, is quoted once.
  const repeats = (piece: ScoredQuotable) =>
    chosen.some(
      (other) =>
        sameText(other.quote, piece.quote) ||
        other.quote.includes(piece.quote) ||
        piece.quote.includes(other.quote),
    );
  for (const noteId of notes ?? []) {
    const first = ranked.find((piece) => piece.passage.note.id === noteId);
    // A note whose best piece another note already says adds nothing to the answer.
    if (first && !repeats(first)) chosen.push(first);
  }
  for (const piece of ranked) {
    if (chosen.length >= QUOTED || piece.score < best.score * RELATIVE_THRESHOLD) break;
    if (!chosen.includes(piece) && !repeats(piece)) chosen.push(piece);
  }
  return chosen.sort((a, b) => b.score - a.score);
};

/** The chosen pieces, with every piece of each short note they quote (SHORT_NOTE). */
export const withShortNotesWhole = (
  chosen: ScoredQuotable[],
  scored: ScoredQuotable[],
): ScoredQuotable[] => {
  const quoted = new Set(chosen.map((piece) => piece.passage.note.id));
  const added = [...quoted].flatMap((noteId) => {
    const ofNote = scored.filter((piece) => piece.passage.note.id === noteId);
    const length = ofNote.reduce((sum, piece) => sum + piece.quote.length, 0);
    return ofNote.length <= SHORT_NOTE.pieces && length <= SHORT_NOTE.chars
      ? ofNote.filter((piece) => !chosen.includes(piece))
      : [];
  });
  return [...chosen, ...added];
};

/** Quotes grouped by note, the best note first, each note's quotes in their order in it. */
const render = (chosen: ScoredQuotable[]): { text: string; citations: NoteRef[] } => {
  const byNote = new Map<string, ScoredQuotable[]>();
  for (const piece of chosen) {
    const ofNote = byNote.get(piece.passage.note.id) ?? [];
    ofNote.push(piece);
    byNote.set(piece.passage.note.id, ofNote);
  }
  const groups = [...byNote.values()];
  const text = groups
    .map((pieces) => {
      const inOrder = [...pieces].sort(
        (a, b) => a.passage.number - b.passage.number || a.order - b.order,
      );
      const quoted = inOrder.map((piece) => `> ${piece.quote}`).join('\n>\n');
      return `${quoted}\n\n— *${pieces[0]!.passage.note.title || 'Untitled note'}*`;
    })
    .join('\n\n');
  return { text, citations: groups.map((pieces) => pieces[0]!.passage.note) };
};

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * Without a model, the answer is the sentences of the passages closest to the question in
 * meaning, quoted with the note each comes from: found, not invented. The question and every
 * candidate sentence are embedded in one call, by the model retrieval uses; when that fails,
 * hashed vectors judge them instead. The notes quoted are those retrieval scored alike
 * (`quotedNotes`), and only they are cited.
 */
export const extractiveAnswer = async (
  question: string,
  passages: Passage[],
  embed: EmbedTexts,
  options: { signal?: AbortSignal; onEmbedError?: (error: unknown) => void } = {},
): Promise<ExtractiveAnswer> => {
  const pieces = quotables(passages);
  if (pieces.length === 0) return { text: '', citations: [], scoring: 'embeddings' };
  const texts = [question, ...pieces.map(embeddedText)];
  let vectors: Float32Array[];
  let scoring: ExtractiveAnswer['scoring'] = 'embeddings';
  try {
    vectors = await embed(texts);
    if (vectors.length !== texts.length) throw new Error('Embeddings do not match the texts');
  } catch (error) {
    if (isAbort(error) || options.signal?.aborted) throw error;
    options.onEmbedError?.(error);
    vectors = texts.map((text) => hashedEmbedding(text));
    scoring = 'hashed';
  }
  const [questionVector, ...pieceVectors] = vectors;
  const scored = scoreQuotables(question, pieces, questionVector!, pieceVectors);
  const chosen = chooseQuotes(scored, quotedNotes(passages));
  return { ...render(withShortNotesWhole(chosen, scored)), scoring };
};
