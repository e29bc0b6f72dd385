import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';
import { hashTags } from '@noted/api';
import {
  basename,
  isMarkdownPath,
  normalizePath,
  resolveReference,
  withoutExtension,
} from './paths.js';
import { mergeTags, tagOf } from './tags.js';

/** The longest title the notes service takes (libs/api `NoteCreate`). */
export const TITLE_MAX_LENGTH = 500;

/** One note read from an import, before ids, links and images are settled by the plan. */
export interface ImportedNote {
  /** Where it came from: its normalised path in the import, or `notion:<page id>`. */
  sourcePath: string;
  /** What its id is made from: the normalised path, or a Notion page's id. */
  key: string;
  title: string;
  /** Markdown, without front matter, and without the heading that became the title. */
  body: string;
  tags: string[];
  /** ISO 8601, when the source says. */
  createdAt?: string;
  updatedAt?: string;
  /** Front matter `source`: where a Noted export says the note came from. */
  source?: string;
  /** Local images it shows, as normalised paths in the import (no addresses). */
  imageRefs: string[];
  /** The Markdown files of the import it links to, as normalised paths. */
  links: string[];
  /** Its references to files of the import, found in `body` as it is (saves reading it again). */
  references?: Reference[];
}

/** A link, image, `[[wiki link]]` or `![[embed]]` of a body that names a file of the import. */
export interface Reference {
  kind: 'link' | 'image' | 'wiki' | 'embed';
  /** Offsets in the body of the whole construct, `[text](target)` included. */
  start: number;
  end: number;
  /** The file it names, normalised. */
  path: string;
  /** The link's text or the image's alt (`undefined` for a bare `[[Name]]`). */
  text?: string;
  /** `#heading` after a wiki link's name, kept as written. */
  anchor?: string;
}

/** Finds a file by the name a `[[Name]]` or `![[image.png]]` gives (Obsidian resolves by name). */
export type FindByName = (name: string) => string | undefined;

const parser = unified().use(remarkParse).use(remarkGfm);
const parseBody = (body: string): Root => parser.parse(body);
// Links and images are found the same without GFM's extensions, at half the time.
const commonMark = unified().use(remarkParse);

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits YAML front matter from a Markdown text. Only a block that parses as a mapping is front
 * matter; anything else (a `---` rule, broken YAML) stays in the body as it was written.
 */
export const splitFrontMatter = (text: string): { data: Record<string, unknown>; body: string } => {
  const match = FRONT_MATTER.exec(text);
  const plain = text.replace(/^\uFEFF/, '');
  if (!match) return { data: {}, body: plain };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '', { maxAliasCount: 100 }) ?? {};
  } catch {
    return { data: {}, body: plain };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { data: {}, body: plain };
  }
  return { data: data as Record<string, unknown>, body: text.slice(match[0].length) };
};

const field = (data: Record<string, unknown>, names: readonly string[]): unknown => {
  for (const [key, value] of Object.entries(data)) {
    if (names.includes(key.toLowerCase())) return value;
  }
  return undefined;
};

/** ISO 8601 from a date as front matter or an API writes it, UTC; anything else undefined. */
export const isoDate = (value: unknown): string | undefined => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  // Date.parse reads other shapes by the host's locale and zone: only ISO-like dates are taken.
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    return undefined;
  }
  const iso = text.includes(':') && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text;
  const time = Date.parse(iso.replace(' ', 'T'));
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
};

/** Front matter `tags` as a list or a comma string, each made a tag the notes service takes. */
export const frontMatterTags = (value: unknown): string[] => {
  const raw: unknown[] =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return raw.flatMap((item) => {
    if (typeof item !== 'string' && typeof item !== 'number') return [];
    const tag = tagOf(String(item));
    return tag === undefined ? [] : [tag];
  });
};

/** The plain text of a node, as a title or a link's text shows it. */
export const plainText = (node: Nodes): string => {
  if ('value' in node && typeof node.value === 'string') {
    return node.type === 'html' ? '' : node.value;
  }
  if ('alt' in node && node.type === 'image') return node.alt ?? '';
  if ('children' in node) return node.children.map((child) => plainText(child)).join('');
  return '';
};

/** A title as the notes service takes it: one line, at most TITLE_MAX_LENGTH characters. */
export const cleanTitle = (title: string): string =>
  title.replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX_LENGTH).trim();

const walk = (node: Nodes, visit: (node: Nodes) => void) => {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
};

const WIKI = /(!?)\[\[([^[\]|#\n]+)(#[^[\]|\n]*)?(?:\|([^[\]\n]*))?\]\]/g;

/**
 * The references of a body to files of the import: Markdown links and images with a relative
 * destination (`[text](Other%20Page.md)`, `![alt](img/a.png)`), and Obsidian's `[[Name]]` and
 * `![[image.png]]` when `findByName` knows the name. Code is skipped. In body order.
 */
export const findReferences = (
  body: string,
  sourcePath: string,
  findByName?: FindByName,
): Reference[] => {
  if (!body.includes('[')) return [];
  const tree = commonMark.parse(body);
  const references: Reference[] = [];
  const code: [number, number][] = [];
  walk(tree, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'html') {
      code.push([start, end]);
      return;
    }
    if (node.type !== 'link' && node.type !== 'image') return;
    // An autolink or a bare address shows its own text: it never names a file of the import.
    if (node.type === 'link' && body[start] !== '[') return;
    const path = resolveReference(sourcePath, node.url);
    if (path === undefined) return;
    references.push({
      kind: node.type,
      start,
      end,
      path,
      text: node.type === 'image' ? (node.alt ?? '') : plainText(node),
    });
  });
  if (findByName) {
    const inCode = (offset: number) => code.some(([from, to]) => offset >= from && offset < to);
    for (const match of body.matchAll(WIKI)) {
      const start = match.index;
      if (inCode(start)) continue;
      const name = (match[2] ?? '').trim();
      const path = findByName(name);
      if (path === undefined) continue;
      const text = match[4]?.trim();
      references.push({
        kind: match[1] === '!' ? 'embed' : 'wiki',
        start,
        end: start + match[0].length,
        path,
        ...(text ? { text } : {}),
        ...(match[3] ? { anchor: match[3] } : {}),
      });
    }
    references.sort((a, b) => a.start - b.start);
  }
  return references;
};

/**
 * The body with references replaced: `replace` answers the new text of one reference, or
 * undefined to leave it as written.
 */
export const rewriteReferences = (
  body: string,
  references: readonly Reference[],
  replace: (reference: Reference) => string | undefined,
): string => {
  let out = '';
  let at = 0;
  for (const reference of references) {
    if (reference.start < at) continue;
    const replacement = replace(reference);
    if (replacement === undefined) continue;
    out += body.slice(at, reference.start) + replacement;
    at = reference.end;
  }
  return out + body.slice(at);
};

/** A Markdown image of a stored URL, its alt text escaped. */
export const imageMarkdown = (alt: string, url: string): string => {
  const text = alt.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
  return `![${text}](${/[\s()<>]/.test(url) ? `<${url}>` : url})`;
};

/**
 * The leading `# heading` of a body (ATX or setext, level 1, nothing but blank lines before it),
 * as its plain text and the body without it; undefined when the body does not start with one.
 */
export const leadingTitle = (body: string): { title: string; rest: string } | undefined => {
  const first = parseBody(body).children[0];
  if (!first || first.type !== 'heading' || first.depth !== 1) return undefined;
  const end = first.position?.end.offset;
  if (end === undefined) return undefined;
  const title = cleanTitle(plainText(first));
  if (title === '') return undefined;
  return { title, rest: body.slice(end).replace(/^[ \t]*(\r?\n)+/, '') };
};

export interface ParseMarkdownOptions {
  /** Resolves `[[Name]]` and `![[image.png]]` to files of the import. */
  findByName?: FindByName;
  /** The title when neither front matter nor a heading gives one; default the file name. */
  fallbackTitle?: string;
  /** Changes the body (title and front matter already out) before tags and links are read. */
  transformBody?: (body: string) => string;
}

/**
 * One Markdown file of an import as a note: title from front matter `title` (the body then kept
 * exactly as written after the front matter), else a leading `# heading` (which then leaves the
 * body), else the file name; tags from front matter `tags` and the body's `#tags` (the
 * composer's rule); dates and `source` from front matter; the local images it shows or its
 * front matter lists, and the Markdown files it links to.
 */
export const parseMarkdown = (
  path: string,
  text: string,
  options: ParseMarkdownOptions = {},
): ImportedNote => {
  const sourcePath = normalizePath(path) ?? path;
  const { data, body: afterFrontMatter } = splitFrontMatter(text);
  const named = field(data, ['title']);
  const hasFrontTitle = typeof named === 'string' || typeof named === 'number';
  let title = hasFrontTitle ? cleanTitle(String(named)) : '';
  let body = afterFrontMatter;
  // When the file says its title, the body is the note's text exactly (as Noted exports it).
  if (!hasFrontTitle) {
    const heading = leadingTitle(afterFrontMatter);
    if (heading) {
      title = heading.title;
      body = heading.rest;
    }
    body = body.replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  if (options.transformBody) body = options.transformBody(body).replace(/^(?:[ \t]*\r?\n)+/, '');
  if (!hasFrontTitle) body = body.trimEnd();
  // A note needs a title or a body: an empty file is still a note, named by its file.
  if (title === '' && (!hasFrontTitle || body.trim() === '')) {
    title = cleanTitle(options.fallbackTitle ?? withoutExtension(basename(sourcePath)));
  }

  const createdAt = isoDate(field(data, ['created', 'createdat', 'created_at', 'date']));
  const updatedAt = isoDate(
    field(data, ['updated', 'updatedat', 'updated_at', 'modified', 'lastmod', 'last_modified']),
  );
  const source = field(data, ['source']);
  const references = findReferences(body, sourcePath, options.findByName);
  const unique = (paths: string[]) => [...new Set(paths)];
  // Noted's export lists a note's images in front matter, also those its text does not show.
  const listed = field(data, ['images']);
  const listedImages = (Array.isArray(listed) ? listed : []).flatMap((item) => {
    const path = typeof item === 'string' ? resolveReference(sourcePath, item) : undefined;
    return path === undefined ? [] : [path];
  });
  return {
    sourcePath,
    key: sourcePath,
    title,
    body,
    tags: mergeTags(frontMatterTags(field(data, ['tags', 'tag'])), hashTags(body)),
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    ...(typeof source === 'string' && source.trim() !== '' ? { source: source.trim() } : {}),
    imageRefs: unique([
      ...references.filter((r) => r.kind === 'image' || r.kind === 'embed').map((r) => r.path),
      ...listedImages,
    ]),
    links: unique(
      references
        .filter((r) => (r.kind === 'link' || r.kind === 'wiki') && isMarkdownPath(r.path))
        .map((r) => r.path),
    ),
    references,
  };
};
