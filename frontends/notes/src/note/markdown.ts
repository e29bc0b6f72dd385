/** `[[Title]]` or `[[Title|shown text]]`, read the way the notes service reads them. */
const WIKI_LINK = /\[\[([^[\]|\n]+)(?:\|([^[\]\n]*))?\]\]/g;

export type WikiPart = { text: string } | { title: string; label: string };

/** Text split into plain runs and wiki links. */
export const wikiParts = (text: string): WikiPart[] => {
  const parts: WikiPart[] = [];
  let last = 0;
  for (const match of text.matchAll(WIKI_LINK)) {
    const title = match[1]?.trim() ?? '';
    if (!title) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ title, label: match[2]?.trim() || title });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
};

/** The little of mdast the plugin touches. */
interface MdastNode {
  type: string;
  value?: string;
  children?: MdastNode[];
  data?: Record<string, unknown>;
}

const wikiNode = (title: string, label: string): MdastNode => ({
  type: 'wikiLink',
  data: {
    hName: 'span',
    hProperties: { dataWikiTitle: title },
    hChildren: [{ type: 'text', value: label }],
  },
});

const withWikiLinks = (parent: MdastNode): void => {
  if (!parent.children || parent.type === 'link' || parent.type === 'linkReference') return;
  parent.children = parent.children.flatMap((child) => {
    if (child.type !== 'text' || !child.value?.includes('[[')) {
      withWikiLinks(child);
      return [child];
    }
    return wikiParts(child.value).map((part) =>
      'title' in part ? wikiNode(part.title, part.label) : { type: 'text', value: part.text },
    );
  });
};

/**
 * A remark plugin: `[[Title]]` in text (not in code or inside a link) becomes a
 * <span data-wiki-title="Title"> for the preview to resolve.
 */
export const remarkWikiLinks = () => withWikiLinks;

/** A task list item (`- [ ] x`, `1. [x] y`, also quoted) on one line: marker and box. */
const TASK = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[)([ xX])\]/;

/** Ticks or unticks the task list item on line `line` (1-based) of the body. */
export const toggleTask = (body: string, line: number): string => {
  const lines = body.split('\n');
  const text = lines[line - 1];
  const match = text === undefined ? null : TASK.exec(text);
  if (!text || !match) return body;
  const [whole, head = '', mark] = match;
  lines[line - 1] = `${head}${mark === ' ' ? 'x' : ' '}]${text.slice(whole.length)}`;
  return lines.join('\n');
};
