/**
 * What a reader sees of a note's Markdown, and its sentences: for search snippets, summaries
 * and the AI's passages alike.
 */
/** Removes Markdown syntax and keeps what a reader sees, one line per source line. */
export const plainText = (markdown: string): string => {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const rawLine of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(rawLine)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      else lines.push(collapseSpaces(rawLine));
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    const line = plainLine(rawLine);
    if (line !== null) lines.push(collapseSpaces(line));
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};

const collapseSpaces = (line: string): string => line.replace(/\s+/g, ' ').trim();

/** A line without its Markdown; null for lines a reader never sees (table rules, link targets). */
const plainLine = (line: string): string | null => {
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return '';
  if (/^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line)) return null;
  if (/^\s*\[[^\]]+\]:\s*\S+/.test(line)) return null;
  return (
    line
      .replace(/^\s*(>\s?)+/, '')
      .replace(/^\s*#{1,6}(\s+|$)/, '')
      .replace(/\s+#+\s*$/, '')
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, '')
      .replace(/^\[[ xX]\]\s+/, '')
      .replace(/<!--.*?-->/g, ' ')
      .replace(/!\[\[[^\]]*\]\]/g, ' ')
      .replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_, title: string, alias?: string) =>
        (alias ?? title).trim(),
      )
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
      .replace(/!\[[^\]]*\]\[[^\]]*\]/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
      .replace(/`+([^`]*)`+/g, '$1')
      .replace(/(\*{1,3}|_{1,3}|~~|==)(?=\S)(.+?)(?<=\S)\1(?![\p{L}\p{N}])/gu, '$2')
      .replace(/^\s*\|/, '')
      .replace(/\|\s*$/, '')
      .replace(/\s\|\s/g, ' ')
      // A backslash escape shows the character itself.
      .replace(/\\([\\`*_{}[\]()#+\-.!|~=>])/g, '$1')
  );
};

// Words that end with a period without ending the sentence ("Dr. Smith", "approx. 3 km").
const ABBREVIATIONS: ReadonlySet<string> = new Set(
  `mr mrs ms dr prof sr jr st vs etc approx incl no nr fig cf al jan feb mar apr jun jul aug sep
  sept oct nov dec mon tue wed thu fri sat sun inc ltd co corp dept est min max resp ca z.b bzw
  usw`.split(/\s+/),
);

const sentenceEnd = /[.!?…]+["'”’»)\]]*(?=\s|$)|[。！？]+["'”’」』)\]]*/gu;

/** True when the period at `periodAt` ends an abbreviation or an initial, not a sentence. */
const isAbbreviation = (line: string, periodAt: number): boolean => {
  // Only the word before the period matters; looking at all of a long line would be quadratic.
  const word = /(\S+)$/.exec(line.slice(Math.max(0, periodAt - 32), periodAt))?.[1] ?? '';
  const bare = word.replace(/^["'“‘([]+/, '');
  if (ABBREVIATIONS.has(bare.toLowerCase())) return true;
  if (/^(\p{L}\.)+\p{L}$/u.test(bare)) return true;
  return /^\p{Lu}$/u.test(bare);
};

/** Splits plain text into sentences; line breaks always end one. */
export const sentences = (text: string): string[] => {
  const result: string[] = [];
  for (const line of text.split(/\n+/)) {
    let start = 0;
    for (const match of line.matchAll(sentenceEnd)) {
      const end = match.index + match[0].length;
      if (/^\.[^.!?…]*$/.test(match[0]) && isAbbreviation(line, match.index)) continue;
      pushTrimmed(result, line.slice(start, end));
      start = end;
    }
    pushTrimmed(result, line.slice(start));
  }
  return result;
};

const pushTrimmed = (into: string[], sentence: string): void => {
  const trimmed = sentence.trim();
  if (/[\p{L}\p{N}]/u.test(trimmed)) into.push(trimmed);
};
