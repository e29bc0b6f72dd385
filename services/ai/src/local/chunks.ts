import { sentences } from '@noted/kit';

export interface NoteChunk {
  index: number;
  text: string;
}

export interface ChunkOptions {
  maxChars?: number;
  overlapChars?: number;
}

const DEFAULT_MAX_CHARS = 1000;
const DEFAULT_OVERLAP_CHARS = 150;

/** A piece of the body that fits a chunk, and what joins it to the piece before it. */
interface Piece {
  text: string;
  separator: string;
  /** A heading starts here: a good place to begin a new chunk. */
  startsSection: boolean;
}

/**
 * Splits a note into chunks of about `maxChars` (the title line included) on heading, paragraph,
 * line, sentence and word boundaries; each chunk after the first repeats the previous one's tail.
 */
export const chunkNote = (
  note: { title: string; body: string },
  options: ChunkOptions = {},
): NoteChunk[] => {
  const maxChars = Math.max(1, options.maxChars ?? DEFAULT_MAX_CHARS);
  const title = note.title.replace(/\s+/g, ' ').trim();
  const body = note.body.replace(/\r\n?/g, '\n').trim();
  if (body === '') return title === '' ? [] : [{ index: 0, text: title }];

  const prefix = title === '' ? '' : `${title}\n`;
  // A very long title still leaves the body half of each chunk.
  const budget = Math.max(maxChars - prefix.length, Math.ceil(maxChars / 2));
  const overlapChars = Math.min(
    Math.max(0, options.overlapChars ?? DEFAULT_OVERLAP_CHARS),
    Math.floor(budget / 2),
  );

  const bodies: string[] = [];
  let current = '';
  for (const piece of pieces(body, budget)) {
    const joined = current === '' ? piece.text : current + piece.separator + piece.text;
    const sectionBreak = piece.startsSection && current.length >= budget / 2;
    if (joined.length <= budget && !sectionBreak) {
      current = joined;
      continue;
    }
    if (current !== '') bodies.push(current);
    // A heading starts afresh: the previous section's tail would only blur it.
    const overlap = sectionBreak ? '' : tail(current, overlapChars);
    current =
      overlap !== '' && overlap.length + 1 + piece.text.length <= budget
        ? `${overlap} ${piece.text}`
        : piece.text;
  }
  if (current !== '') bodies.push(current);
  return bodies.map((text, index) => ({ index, text: prefix + text }));
};

/** The last words of `text` that fit in `maxChars`, starting at a word. */
const tail = (text: string, maxChars: number): string => {
  if (maxChars <= 0 || text === '') return '';
  if (text.length <= maxChars) return text.replace(/\s+/g, ' ').trim();
  const cut = text.slice(text.length - maxChars);
  const wordStart = /\s/.test(text[text.length - maxChars - 1] ?? ' ') ? 0 : cut.search(/\s/);
  return wordStart < 0 ? '' : cut.slice(wordStart).replace(/\s+/g, ' ').trim();
};

/** The body as pieces no longer than `budget`: blocks, else lines, sentences, words, characters. */
function* pieces(body: string, budget: number): Generator<Piece> {
  let first = true;
  for (const block of blocks(body)) {
    let startsSection = /^#{1,6}\s/.test(block);
    let separator = first ? '' : '\n\n';
    first = false;
    for (const part of fit(block, budget)) {
      yield {
        text: part.text,
        separator: separator === '' ? part.separator : separator,
        startsSection,
      };
      separator = '';
      startsSection = false;
    }
  }
}

function* fit(block: string, budget: number): Generator<{ text: string; separator: string }> {
  if (block.length <= budget) {
    yield { text: block, separator: '' };
    return;
  }
  let separator = '';
  for (const line of block.split('\n')) {
    const lineParts = line.length <= budget ? [line] : sentencesOf(line);
    for (const sentence of lineParts) {
      for (const part of sentence.length <= budget ? [sentence] : words(sentence, budget)) {
        yield { text: part, separator };
        separator = ' ';
      }
    }
    separator = '\n';
  }
}

const sentencesOf = (line: string): string[] => {
  const found = sentences(line);
  return found.length > 0 ? found : [line];
};

/** Words packed up to `budget`; a single word longer than that is the only thing cut. */
const words = (sentence: string, budget: number): string[] => {
  const parts: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/).filter(Boolean)) {
    if (word.length > budget) {
      if (current !== '') parts.push(current);
      current = '';
      for (let start = 0; start < word.length; start += budget) {
        parts.push(word.slice(start, start + budget));
      }
      continue;
    }
    const joined = current === '' ? word : `${current} ${word}`;
    if (joined.length <= budget) current = joined;
    else {
      parts.push(current);
      current = word;
    }
  }
  if (current !== '') parts.push(current);
  return parts;
};

/** Paragraphs and headings, keeping fenced code whole. */
const blocks = (body: string): string[] => {
  const result: string[] = [];
  let lines: string[] = [];
  let fence: string | null = null;
  const flush = (): void => {
    const text = lines.join('\n').trim();
    if (text !== '') result.push(text);
    lines = [];
  };
  for (const line of body.split('\n')) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null) {
      if (line.trim() === '') {
        flush();
        continue;
      }
      if (/^\s{0,3}#{1,6}\s/.test(line) || fenceMark) flush();
      if (fenceMark) fence = fenceMark;
    } else if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) {
      fence = null;
    }
    lines.push(line);
  }
  flush();
  return result;
};
