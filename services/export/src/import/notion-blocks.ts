import type { BlockObjectResponse, RichTextItemResponse } from '@notionhq/client';
import { notionKey } from './notion-export.js';

/** A block with its children read (the API gives them by a separate, paginated call). */
export interface BlockNode {
  block: BlockObjectResponse;
  children: BlockNode[];
}

/** What turning blocks into Markdown needs besides the blocks. */
export interface BlockContext {
  /** A page's title by its key (32 hex), for `link_to_page` and links to `/<page id>`. */
  titleOf: (pageKey: string) => string | undefined;
  /** Where an image block's picture is, as the note will reference it. */
  imageUrl: (block: BlockObjectResponse & { type: 'image' }) => string | undefined;
}

const escapeText = (text: string) =>
  text
    .replace(/[\\`*[\]]/g, (c) => `\\${c}`)
    .replace(/(^|\W)_|_(?=\W|$)/g, (m) => m.replace('_', '\\_'));

/** Markers go inside a run's spaces: `** bold**` is not bold in Markdown. */
const wrap = (text: string, marker: string) => {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  if (!match || match[2] === '') return text;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
};

const PAGE_LINK = /^(?:https?:\/\/(?:www\.)?notion\.so)?\/(?:[^?#]*-)?([0-9a-f]{32})(?:[?#].*)?$/i;

const wikiTitle = (title: string) => title.replace(/[[\]|\n]/g, ' ').trim();

/** Rich text as Markdown: bold, italic, strikethrough, code, links; page mentions `[[Title]]`. */
export const richTextMarkdown = (
  items: readonly RichTextItemResponse[],
  context: Pick<BlockContext, 'titleOf'>,
): string =>
  items
    .map((item) => {
      if (item.type === 'mention' && item.mention.type === 'page') {
        const title = context.titleOf(notionKey(item.mention.page.id)) ?? item.plain_text;
        return wikiTitle(title) === '' ? '' : `[[${wikiTitle(title)}]]`;
      }
      if (item.type === 'equation') return `$${item.equation.expression}$`;
      const { annotations } = item;
      let text = annotations.code
        ? `\`${item.plain_text.replace(/`/g, 'ˋ')}\``
        : escapeText(item.plain_text);
      if (!annotations.code) {
        if (annotations.bold) text = wrap(text, '**');
        if (annotations.italic) text = wrap(text, '*');
        if (annotations.strikethrough) text = wrap(text, '~~');
      }
      const href = item.type === 'text' ? (item.text.link?.url ?? item.href) : item.href;
      if (href) {
        const page = PAGE_LINK.exec(href);
        if (page) {
          const title = context.titleOf((page[1] ?? '').toLowerCase());
          return title === undefined ? text : `[[${wikiTitle(title)}|${item.plain_text.trim()}]]`;
        }
        if (/^(https?|mailto):/i.test(href))
          return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
      }
      return text;
    })
    .join('');

const plain = (items: readonly RichTextItemResponse[]) =>
  items.map((item) => item.plain_text).join('');

const indentLines = (text: string, prefix: string) =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `${prefix}${line}`))
    .join('\n');

const fence = (code: string) => {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
};

const LANGUAGES: Record<string, string> = { 'plain text': '', 'c++': 'cpp', 'c#': 'csharp' };

const tableMarkdown = (rows: BlockNode[], context: BlockContext) => {
  const cells = rows.flatMap(({ block }) =>
    block.type === 'table_row'
      ? [block.table_row.cells.map((cell) => richTextMarkdown(cell, context).replace(/\|/g, '\\|'))]
      : [],
  );
  const [header, ...body] = cells;
  if (!header) return '';
  const line = (row: string[]) => `| ${header.map((_, i) => row[i] ?? '').join(' | ')} |`;
  return [line(header), `| ${header.map(() => '---').join(' | ')} |`, ...body.map(line)].join('\n');
};

const mediaUrl = (
  media: { type: 'external'; external: { url: string } } | { type: 'file'; file: { url: string } },
) => (media.type === 'external' ? media.external.url : media.file.url);

const linkLine = (caption: string, url: string) =>
  `[${escapeText(caption.trim() || url)}](${url.replace(/[()\s]/g, encodeURIComponent)})`;

/** Which list a block is an item of: numbered ones, or bulleted (to-dos and toggles too). */
const listKind = (node: BlockNode) =>
  node.block.type === 'numbered_list_item'
    ? 'ol'
    : ['bulleted_list_item', 'to_do', 'toggle'].includes(node.block.type)
      ? 'ul'
      : undefined;

/** One block (and its children) as Markdown; '' for what a note cannot show. */
const blockMarkdown = (node: BlockNode, number: number, context: BlockContext): string => {
  const { block } = node;
  const text = (items: readonly RichTextItemResponse[]) => richTextMarkdown(items, context);
  const children = () => blocksMarkdown(node.children, context);
  const item = (marker: string, content: string) => {
    const nested = children();
    return nested === ''
      ? `${marker} ${content}`
      : `${marker} ${content}\n${indentLines(nested, ' '.repeat(marker.length + 1))}`;
  };
  const withChildren = (own: string) =>
    [own, children()].filter((part) => part !== '').join('\n\n');
  switch (block.type) {
    case 'paragraph':
      return withChildren(text(block.paragraph.rich_text));
    case 'heading_1':
      return withChildren(`# ${text(block.heading_1.rich_text)}`);
    case 'heading_2':
      return withChildren(`## ${text(block.heading_2.rich_text)}`);
    case 'heading_3':
      return withChildren(`### ${text(block.heading_3.rich_text)}`);
    case 'bulleted_list_item':
      return item('-', text(block.bulleted_list_item.rich_text));
    case 'numbered_list_item':
      return item(`${number}.`, text(block.numbered_list_item.rich_text));
    case 'to_do':
      return item(`- [${block.to_do.checked ? 'x' : ' '}]`, text(block.to_do.rich_text));
    case 'toggle':
      return item('-', text(block.toggle.rich_text));
    case 'quote':
      return indentLines(withChildren(text(block.quote.rich_text)), '> ').replace(/^$/gm, '>');
    case 'callout': {
      const icon = block.callout.icon?.type === 'emoji' ? `${block.callout.icon.emoji} ` : '';
      return indentLines(withChildren(icon + text(block.callout.rich_text)), '> ').replace(
        /^$/gm,
        '>',
      );
    }
    case 'code': {
      const code = plain(block.code.rich_text);
      const marks = fence(code);
      const language = LANGUAGES[block.code.language] ?? block.code.language;
      return `${marks}${language}\n${code}\n${marks}`;
    }
    case 'divider':
      return '---';
    case 'equation':
      return `$$\n${block.equation.expression}\n$$`;
    case 'image': {
      const url = context.imageUrl(block);
      if (url === undefined) return '';
      const alt = plain(block.image.caption).replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim();
      return `![${alt}](${/[\s()]/.test(url) ? `<${url}>` : url})`;
    }
    case 'bookmark':
      return linkLine(plain(block.bookmark.caption), block.bookmark.url);
    case 'embed':
      return linkLine(plain(block.embed.caption), block.embed.url);
    case 'link_preview':
      return linkLine('', block.link_preview.url);
    case 'video':
    case 'file':
    case 'pdf':
    case 'audio': {
      const media =
        block.type === 'video'
          ? block.video
          : block.type === 'file'
            ? block.file
            : block.type === 'pdf'
              ? block.pdf
              : block.audio;
      const name = 'name' in media && typeof media.name === 'string' ? media.name : block.type;
      return `[${escapeText(name)}](${mediaUrl(media)})`;
    }
    case 'table':
      return tableMarkdown(node.children, context);
    case 'child_page':
      return `[[${wikiTitle(block.child_page.title)}]]`;
    case 'child_database':
      return `**${escapeText(block.child_database.title)}**`;
    case 'link_to_page': {
      if (block.link_to_page.type !== 'page_id') return '';
      const title = context.titleOf(notionKey(block.link_to_page.page_id));
      return title === undefined ? '' : `[[${wikiTitle(title)}]]`;
    }
    case 'column_list':
    case 'column':
    case 'synced_block':
    case 'template':
      return children();
    default:
      return '';
  }
};

/**
 * Blocks as Markdown: paragraphs, headings, bulleted, numbered and to-do lists (nested),
 * toggles as list items, quotes, callouts, code, dividers, equations, images, bookmarks and
 * files as links, tables, child pages and links to pages as `[[Title]]`. Blocks a note
 * cannot show (breadcrumbs, tables of contents, unsupported ones) are left out.
 */
export const blocksMarkdown = (nodes: readonly BlockNode[], context: BlockContext): string => {
  const parts: string[] = [];
  let number = 0;
  let previousList: string | undefined;
  for (const node of nodes) {
    number = node.block.type === 'numbered_list_item' ? number + 1 : 0;
    const markdown = blockMarkdown(node, number, context);
    if (markdown === '') continue;
    const list = listKind(node);
    // Items of one list are one line apart; anything else starts a new paragraph.
    const gap = list !== undefined && list === previousList ? '\n' : '\n\n';
    parts.push(parts.length === 0 ? markdown : `${gap}${markdown}`);
    previousList = list;
  }
  return parts.join('');
};
