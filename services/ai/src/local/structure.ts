import { plainText, sentences } from '@noted/kit';

/** An item's checkbox: `- [ ]` open, `- [x]` done, null without one. */
export type TaskState = 'open' | 'done' | null;

export interface ListItem {
  /** The item as a reader sees it, continuation lines joined. */
  text: string;
  /** Nesting: 0 for a top-level item. */
  depth: number;
  task: TaskState;
  /** The text of the item this one is nested in. */
  parent: string | null;
}

/** A block of a note, its Markdown removed, with the heading it sits under. */
export type Block = { heading: string | null } & (
  | { kind: 'heading'; depth: number; text: string }
  | { kind: 'paragraph'; lines: string[] }
  /** `lead` is the line that introduced the list ("Action items:"), its colon dropped. */
  | { kind: 'list'; lead: string | null; items: ListItem[] }
  | { kind: 'table'; header: string[]; rows: string[][] }
  | { kind: 'code'; lines: string[] }
);

const HEADING = /^\s{0,3}(#{1,6})\s+(.*)$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const TASK = /^\[([ xX])\]\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;

const cellsOf = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => plainText(cell.trim()));

const indentOf = (spaces: string): number => spaces.replace(/\t/g, '    ').length;

/**
 * A note's Markdown as blocks a reader would tell apart: headings, paragraphs (one plain line
 * per source line), lists (with their checkboxes, nesting and the line that led into them),
 * tables and code. Each block knows the heading it sits under.
 */
export const markdownBlocks = (markdown: string): Block[] => {
  const blocks: Block[] = [];
  let heading: string | null = null;
  let paragraph: string[] | null = null;
  let list: { lead: string | null; items: ListItem[]; indents: number[] } | null = null;
  let table: { header: string[]; rows: string[][] } | null = null;
  let code: { fence: string; lines: string[] } | null = null;
  /** A blank line ended the last list item: only another item (or an indented line) goes on. */
  let listPaused = false;

  const closeParagraph = () => {
    if (paragraph && paragraph.length > 0)
      blocks.push({ heading, kind: 'paragraph', lines: paragraph });
    paragraph = null;
  };
  const closeList = () => {
    if (list && list.items.length > 0) {
      blocks.push({ heading, kind: 'list', lead: list.lead, items: list.items });
    }
    list = null;
    listPaused = false;
  };
  const closeTable = () => {
    if (table) {
      if (table.rows.length === 0 && table.header.length > 0) {
        blocks.push({ heading, kind: 'table', header: [], rows: [table.header] });
      } else blocks.push({ heading, kind: 'table', header: table.header, rows: table.rows });
    }
    table = null;
  };
  const closeAll = () => {
    closeParagraph();
    closeList();
    closeTable();
  };

  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  for (const line of lines) {
    if (code) {
      const mark = FENCE.exec(line)?.[1];
      if (mark && mark[0] === code.fence[0] && mark.length >= code.fence.length) {
        blocks.push({ heading, kind: 'code', lines: code.lines });
        code = null;
      } else code.lines.push(line);
      continue;
    }
    const fence = FENCE.exec(line)?.[1];
    if (fence) {
      closeAll();
      code = { fence, lines: [] };
      continue;
    }
    if (line.trim() === '') {
      closeParagraph();
      closeTable();
      if (list) listPaused = true;
      continue;
    }
    const headingMatch = HEADING.exec(line);
    if (headingMatch) {
      closeAll();
      const text = plainText(line);
      blocks.push({ heading, kind: 'heading', depth: headingMatch[1]!.length, text });
      heading = text || heading;
      continue;
    }
    if (paragraph && SETEXT.test(line)) {
      // "Title" over "=====" (or "-----") is a heading.
      const text = paragraph.pop()!;
      closeAll();
      blocks.push({ heading, kind: 'heading', depth: line.includes('=') ? 1 : 2, text });
      heading = text;
      continue;
    }
    if (RULE.test(line)) {
      closeAll();
      continue;
    }
    if (TABLE_ROW.test(line) || (table && line.includes('|'))) {
      if (!table) {
        closeParagraph();
        closeList();
        table = { header: cellsOf(line), rows: [] };
      } else if (TABLE_RULE.test(line)) continue;
      else table.rows.push(cellsOf(line));
      continue;
    }
    if (table && TABLE_RULE.test(line)) continue;
    closeTable();

    const item = LIST_ITEM.exec(line);
    if (item) {
      let lead: string | null = null;
      if (paragraph) {
        const last: string = paragraph[paragraph.length - 1] ?? '';
        if (/[:：]$/.test(last)) {
          lead = last.replace(/\s*[:：]$/, '');
          paragraph.pop();
        }
        closeParagraph();
      }
      if (!list) list = { lead, items: [], indents: [] };
      else if (lead !== null) {
        closeList();
        list = { lead, items: [], indents: [] };
      }
      const current: { lead: string | null; items: ListItem[]; indents: number[] } = list;
      const indent = indentOf(item[1]!);
      while (current.indents.length > 0 && indent < current.indents[current.indents.length - 1]!) {
        current.indents.pop();
      }
      if (current.indents.length === 0 || indent > current.indents[current.indents.length - 1]!) {
        current.indents.push(indent);
      }
      const depth = current.indents.length - 1;
      const task = TASK.exec(item[2]!);
      const parent =
        depth === 0
          ? null
          : ([...current.items].reverse().find((earlier) => earlier.depth < depth)?.text ?? null);
      current.items.push({
        text: plainText(task ? task[2]! : item[2]!),
        depth,
        task: task ? (task[1] === ' ' ? 'open' : 'done') : null,
        parent,
      });
      listPaused = false;
      continue;
    }
    const activeList = list as { items: ListItem[] } | null;
    if (activeList && /^\s+\S/.test(line)) {
      // An indented line continues the last item, even after a blank line.
      const last = activeList.items[activeList.items.length - 1]!;
      const more = plainText(line);
      if (more !== '') last.text = `${last.text} ${more}`;
      listPaused = false;
      continue;
    }
    if (activeList && !listPaused) {
      // A line right under an item, not indented: Markdown reads it as part of the item.
      const last = activeList.items[activeList.items.length - 1]!;
      const more = plainText(line);
      if (more !== '') last.text = `${last.text} ${more}`;
      continue;
    }
    closeList();
    const text = plainText(line);
    if (text === '') continue;
    (paragraph ??= []).push(text);
  }
  if (code) blocks.push({ heading, kind: 'code', lines: (code as { lines: string[] }).lines });
  closeAll();
  return blocks;
};

const SENTENCE_END = /[.!?…。！？]["'”’»」』)\]]*$/u;
const CJK_TEXT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** True when the text is written in Chinese or Japanese (its punctuation is full-width). */
export const isCjk = (text: string): boolean => {
  const cjk = [...text.matchAll(new RegExp(CJK_TEXT.source, 'gu'))].length;
  const latin = [...text.matchAll(/\p{Script=Latin}+/gu)].length;
  return cjk > 0 && cjk >= latin;
};

/** The text with the punctuation that ends a sentence: a period (。 in Chinese or Japanese). */
export const asSentence = (text: string): string => {
  const trimmed = text.trim().replace(/\s*[,;:，；：、—–-]+$/u, '');
  if (trimmed === '' || SENTENCE_END.test(trimmed)) return trimmed;
  return trimmed + (isCjk(trimmed) ? '。' : '.');
};

/** Words (or, in Chinese and Japanese, characters over three) of a text: how long it reads. */
export const wordCount = (text: string): number => {
  const cjk = [...text.matchAll(new RegExp(CJK_TEXT.source, 'gu'))].length;
  const words = text.replace(new RegExp(CJK_TEXT.source, 'gu'), ' ').match(/[\p{L}\p{N}]+/gu);
  return (words?.length ?? 0) + Math.ceil(cjk / 3);
};

const lettersOf = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** The same words, ignoring case, punctuation and spacing: a heading that repeats the title. */
export const sameText = (a: string, b: string): boolean => {
  const left = lettersOf(a);
  return left !== '' && left === lettersOf(b);
};

/**
 * True when a sentence says little more than the title: the same words, or a title made of
 * the sentence's start (as a title drawn from the first sentence is) covering most of it.
 */
export const repeatsTitle = (sentence: string, title: string): boolean => {
  const said = lettersOf(sentence);
  const titled = lettersOf(title);
  if (titled === '' || said === '') return false;
  if (said === titled) return true;
  return titled.length >= 20 && said.startsWith(titled) && titled.length >= 0.6 * said.length;
};

/**
 * The sentences of a paragraph's lines. A line that stops mid-sentence and is followed by one
 * starting in lower case is a wrapped line, joined to the next; any other line ends a sentence.
 */
export const paragraphSentences = (lines: string[]): string[] => {
  const joined: string[] = [];
  for (const line of lines) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && !/[.!?…。！？:;：；]$/u.test(previous) && /^\p{Ll}/u.test(line)) {
      joined[joined.length - 1] = `${previous} ${line}`;
    } else joined.push(line);
  }
  return joined.flatMap((line) => sentences(line));
};
