import {
  asSentence,
  isCjk,
  markdownBlocks,
  paragraphSentences,
  repeatsTitle,
  sameText,
  wordCount,
  type Block,
  type ListItem,
} from './structure.js';

/** Items a list names in one sentence, at most; more are cut with an ellipsis. */
const LISTED_ITEMS = 6;
/** Items this long on average (in words) read as sentences of their own. */
const SENTENCE_ITEM_WORDS = 6;

/** What is done matters less to a summary than what is said and what is still to do. */
const DONE_WEIGHT = 0.5;
/** A line of details ("Attendees: Dana, Sam") matters less than a sentence. */
const DETAIL_WEIGHT = 0.5;

/** "Key: a short value", a detail rather than something said. */
const isDetail = (sentence: string) => {
  const value = /^[^:：]{1,24}[:：]\s*(.+)$/u.exec(sentence)?.[1];
  return value !== undefined && wordCount(value) <= 3;
};

/** A sentence a summary may quote, and how much more or less than centrality alone it counts. */
export interface SummaryUnit {
  text: string;
  weight: number;
}

/** The words a summary puts before open and done to-dos that have no heading of their own. */
const TASK_LABELS = {
  latin: { open: 'To do', done: 'Done' },
  cjk: { open: '待办', done: '已完成' },
} as const;

const isUrl = (text: string) => /^(?:https?|mailto|ftp):\S+$/i.test(text.trim());

/** "Label: text", with the colon of the text's language. */
const labelled = (label: string | null, text: string, cjk: boolean): string =>
  label ? `${label}${cjk ? '：' : ': '}${text}` : text;

/** The list's items by checkbox state (open, done, none), each group in the list's order. */
const groupsOf = (items: ListItem[]): ListItem[][] => {
  const groups = new Map<ListItem['task'], ListItem[]>();
  for (const item of items) groups.set(item.task, [...(groups.get(item.task) ?? []), item]);
  return [...groups.values()];
};

/** "Dana: send the deck" as "send the deck (Dana)": the label before it would be a second colon. */
const ownerLast = (task: string): string => {
  const owned = /^@?(\p{Lu}[\p{L}.'-]*(?: \p{Lu}[\p{L}.'-]*)?)\s*[:：]\s+(\S.*)$/u.exec(task);
  return owned ? `${owned[2]} (${owned[1]})` : task;
};

const withoutEnd = (text: string) => text.replace(/[\s.,;:!?。，；：！？]+$/u, '');

/**
 * A list as a reader would say it: to-dos as one sentence after what they are ("To do: …",
 * "Done: …"), other items that are sentences as sentences of their own, short items named in
 * one sentence after their heading ("Ingredients: garlic, onions, stock."); never run together
 * without punctuation.
 */
const listSentences = (lead: string | null, items: ListItem[]): SummaryUnit[] => {
  const top = items.filter((item) => item.depth === 0 && item.text.trim() !== '');
  return groupsOf(top).flatMap((group) => {
    const task = group[0]!.task;
    const texts = group.map((item) => (task ? ownerLast(item.text.trim()) : item.text.trim()));
    const cjk = isCjk(texts.join(' '));
    const labels = cjk ? TASK_LABELS.cjk : TASK_LABELS.latin;
    const label = task === 'done' ? labels.done : (lead ?? (task === 'open' ? labels.open : null));
    const long =
      texts.reduce((sum, text) => sum + wordCount(text), 0) / texts.length >= SENTENCE_ITEM_WORDS ||
      texts.some((text) => /[.!?。！？]\s*\S/u.test(text));
    if (long && !task) return texts.map((text) => ({ text: asSentence(text), weight: 1 }));
    const bare = texts.map(withoutEnd);
    const listed = bare.slice(0, LISTED_ITEMS);
    const separator = cjk
      ? long
        ? '；'
        : '、'
      : long || listed.some((text) => text.includes(','))
        ? '; '
        : ', ';
    const named = listed.join(separator) + (bare.length > listed.length ? '…' : '');
    return [
      { text: asSentence(labelled(label, named, cjk)), weight: task === 'done' ? DONE_WEIGHT : 1 },
    ];
  });
};

/**
 * What a note says as sentences a summary can quote: its paragraphs' sentences, each list as
 * the sentences a reader would make of it; every sentence ending with its punctuation.
 * Headings label the lists under them but are not sentences; the note's title (often its
 * first heading too) never is one. Code and tables are left out.
 */
export const summaryUnits = (markdown: string, title = ''): SummaryUnit[] => {
  const blocks = markdownBlocks(markdown);
  const notTitle = (text: string | null) => (text && !sameText(text, title) ? text : null);
  const fromBlock = (block: Block): SummaryUnit[] => {
    switch (block.kind) {
      case 'paragraph':
        return paragraphSentences(block.lines)
          .filter((sentence) => !repeatsTitle(sentence, title) && !isUrl(sentence))
          .map((sentence) => ({
            text: asSentence(sentence),
            weight: isDetail(sentence) ? DETAIL_WEIGHT : 1,
          }));
      case 'list':
        return listSentences(block.lead ?? notTitle(block.heading), block.items);
      default:
        return [];
    }
  };
  const found = blocks.flatMap(fromBlock).filter((unit) => /[\p{L}\p{N}]/u.test(unit.text));
  if (found.length > 0) return found;
  // A note of headings only says what its headings say.
  return blocks.flatMap((block) =>
    block.kind === 'heading' && notTitle(block.text)
      ? [{ text: asSentence(block.text), weight: 1 }]
      : [],
  );
};

/** The sentences of `summaryUnits`. */
export const summarySentences = (markdown: string, title = ''): string[] =>
  summaryUnits(markdown, title).map((unit) => unit.text);
