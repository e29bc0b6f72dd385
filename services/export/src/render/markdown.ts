import type {
  Definition,
  List,
  ListItem,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
  Table,
} from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { liveLink } from './link.js';

/**
 * A run of text with the emphasis it carries; a link keeps its target when it is http, https or
 * mailto (anything else is its text alone), a wiki link only its label.
 */
export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: string;
  /** `[[Title]]`: shown as its label, marked but not clickable (the target lives in Noted). */
  wiki?: boolean;
}

export interface ListBlockItem {
  /** null for a plain item, true/false for a task. */
  checked: boolean | null;
  blocks: Block[];
}

/** What the renderers draw: the note's Markdown reduced to blocks of runs. */
export type Block =
  | { type: 'heading'; depth: 1 | 2 | 3 | 4 | 5 | 6; inlines: Inline[] }
  | { type: 'paragraph'; inlines: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; spread: boolean; items: ListBlockItem[] }
  | { type: 'code'; lang: string | null; text: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'table'; align: ('left' | 'right' | 'center' | null)[]; rows: Inline[][][] }
  | { type: 'hr' }
  | { type: 'image'; url: string; alt: string };

/** `[[Title]]` or `[[Title|shown text]]`, read as the notes service and the app read them. */
const WIKI_LINK = /\[\[([^[\]|\n]+)(?:\|([^[\]\n]*))?\]\]/g;

const parser = unified().use(remarkParse).use(remarkGfm);

export const parseMarkdown = (markdown: string): Root => parser.parse(markdown);

interface Marks {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  link?: string;
}

class Reader {
  private readonly definitions = new Map<string, Definition>();

  constructor(root: Root) {
    const collect = (node: Nodes): void => {
      if (node.type === 'definition') this.definitions.set(node.identifier, node);
      if ('children' in node) for (const child of node.children) collect(child);
    };
    collect(root);
  }

  blocks(nodes: readonly RootContent[]): Block[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: RootContent): Block[] {
    switch (node.type) {
      case 'heading':
        return [{ type: 'heading', depth: node.depth, inlines: this.inlines(node.children) }];
      case 'paragraph':
        return this.paragraph(node.children);
      case 'list':
        return [this.list(node)];
      case 'code':
        return [{ type: 'code', lang: node.lang ?? null, text: node.value }];
      case 'blockquote':
        return [{ type: 'quote', blocks: this.blocks(node.children) }];
      case 'table':
        return [this.table(node)];
      case 'thematicBreak':
        return [{ type: 'hr' }];
      case 'html': {
        const text = htmlText(node.value);
        return text ? [{ type: 'paragraph', inlines: [{ text }] }] : [];
      }
      case 'footnoteDefinition':
        return this.blocks(node.children);
      default:
        return [];
    }
  }

  /** A paragraph; images in it stand as blocks of their own, between the text around them. */
  private paragraph(children: PhrasingContent[]): Block[] {
    const blocks: Block[] = [];
    let pending: PhrasingContent[] = [];
    const flush = () => {
      const inlines = trimInlines(this.inlines(pending));
      if (inlines.length > 0) blocks.push({ type: 'paragraph', inlines });
      pending = [];
    };
    for (const child of children) {
      const image = this.image(child);
      if (image) {
        flush();
        blocks.push(image);
      } else pending.push(child);
    }
    flush();
    return blocks;
  }

  private image(node: PhrasingContent): Block | null {
    if (node.type === 'image') return { type: 'image', url: node.url, alt: node.alt ?? '' };
    if (node.type === 'imageReference') {
      const definition = this.definitions.get(node.identifier);
      return definition ? { type: 'image', url: definition.url, alt: node.alt ?? '' } : null;
    }
    if (node.type === 'link' && node.children.length === 1) {
      const only = node.children[0];
      return only ? this.image(only) : null;
    }
    return null;
  }

  private list(node: List): Block {
    return {
      type: 'list',
      ordered: node.ordered ?? false,
      start: node.start ?? 1,
      spread: (node.spread ?? false) || node.children.some((item) => item.spread === true),
      items: node.children.map((item: ListItem) => ({
        checked: item.checked ?? null,
        blocks: this.blocks(item.children),
      })),
    };
  }

  private table(node: Table): Block {
    return {
      type: 'table',
      align: node.align ?? [],
      rows: node.children.map((row) =>
        row.children.map((cell) => trimInlines(this.inlines(cell.children))),
      ),
    };
  }

  inlines(nodes: readonly PhrasingContent[], marks: Marks = {}): Inline[] {
    const out: Inline[] = [];
    for (const node of nodes) {
      switch (node.type) {
        case 'text':
          out.push(...wikiInlines(node.value, marks));
          break;
        case 'strong':
          out.push(...this.inlines(node.children, { ...marks, bold: true }));
          break;
        case 'emphasis':
          out.push(...this.inlines(node.children, { ...marks, italic: true }));
          break;
        case 'delete':
          out.push(...this.inlines(node.children, { ...marks, strike: true }));
          break;
        case 'inlineCode':
          out.push({ ...marks, text: node.value, code: true });
          break;
        case 'break':
          out.push({ ...marks, text: '\n' });
          break;
        case 'link':
          out.push(...this.inlines(node.children, linked(marks, node.url)));
          break;
        case 'linkReference': {
          const definition = this.definitions.get(node.identifier);
          out.push(...this.inlines(node.children, linked(marks, definition?.url)));
          break;
        }
        case 'image':
        case 'imageReference':
          if (node.alt) out.push({ ...marks, text: node.alt });
          break;
        case 'footnoteReference':
          out.push({ ...marks, text: `[${node.label ?? node.identifier}]` });
          break;
        case 'html': {
          const text = htmlText(node.value);
          if (text) out.push({ ...marks, text });
          break;
        }
        default:
          break;
      }
    }
    return out;
  }
}

/** The marks of a link's text: its target when it is one a document may open, else plain text. */
const linked = (marks: Marks, url: string | undefined): Marks => {
  const link = url === undefined ? undefined : liveLink(url);
  return link ? { ...marks, link } : marks;
};

const wikiInlines = (text: string, marks: Marks): Inline[] => {
  if (marks.link || !text.includes('[[')) return [{ ...marks, text }];
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(WIKI_LINK)) {
    const title = match[1]?.trim() ?? '';
    if (!title) continue;
    if (match.index > last) out.push({ ...marks, text: text.slice(last, match.index) });
    out.push({ ...marks, text: match[2]?.trim() || title, wiki: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ ...marks, text: text.slice(last) });
  return out;
};

/** Raw HTML in a note is shown as its text (`<br>` as a line break), never interpreted. */
const htmlText = (html: string): string =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** Drops the white space a paragraph starts or ends with once its images are taken out. */
const trimInlines = (inlines: Inline[]): Inline[] => {
  const out = inlines.filter((inline) => inline.text.length > 0);
  const first = out[0];
  if (first && !first.code) out[0] = { ...first, text: first.text.replace(/^\s+/, '') };
  const lastIndex = out.length - 1;
  const last = out[lastIndex];
  if (last && !last.code) out[lastIndex] = { ...last, text: last.text.replace(/\s+$/, '') };
  return out.filter((inline) => inline.text.length > 0);
};

/** The note's Markdown as blocks for the PDF and the card. */
export const markdownBlocks = (markdown: string): Block[] => {
  const root = parseMarkdown(markdown);
  return new Reader(root).blocks(root.children);
};

/** The first image in reading order, if any. */
export const firstImage = (blocks: readonly Block[]): Extract<Block, { type: 'image' }> | null => {
  for (const block of blocks) {
    if (block.type === 'image') return block;
    const inner =
      block.type === 'quote'
        ? firstImage(block.blocks)
        : block.type === 'list'
          ? firstImage(block.items.flatMap((item) => item.blocks))
          : null;
    if (inner) return inner;
  }
  return null;
};

/** The blocks with their images left out, however deep. */
export const withoutImages = (blocks: readonly Block[]): Block[] =>
  blocks.flatMap((block): Block[] => {
    if (block.type === 'image') return [];
    if (block.type === 'quote') return [{ ...block, blocks: withoutImages(block.blocks) }];
    if (block.type === 'list') {
      const items = block.items.map((item) => ({ ...item, blocks: withoutImages(item.blocks) }));
      return [{ ...block, items }];
    }
    return [block];
  });

/** Plain text of runs, for measuring a note's language and for tests. */
export const inlineText = (inlines: readonly Inline[]): string =>
  inlines.map((inline) => inline.text).join('');

const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
const LETTER = /[\p{L}\p{N}]/gu;

/** True when most of the letters in the text are Chinese (the note is "in Chinese"). */
export const mostlyCjk = (text: string): boolean => {
  const letters = text.match(LETTER)?.length ?? 0;
  const cjk = text.match(CJK)?.length ?? 0;
  // A Chinese character carries about as much as an English word: weigh the scripts so.
  const latin = letters - cjk;
  return cjk > 0 && cjk * 4 >= latin;
};
