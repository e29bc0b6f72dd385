/**
 * A path inside an import as one spelling: `/` separators, Unicode NFC (macOS writes names
 * decomposed), no `.` or empty parts, `..` applied. A path that climbs above the import's
 * root, or names nothing, gives undefined.
 */
export const normalizePath = (path: string): string | undefined => {
  const parts: string[] = [];
  for (const part of path.normalize('NFC').replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
};

export const dirname = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};

export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The extension in lower case, without the dot: `md` for `a/Note.MD`. */
export const extension = (path: string): string => {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
};

export const withoutExtension = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
};

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Where a reference written in the file at `from` points inside the import, or undefined when
 * it leaves the import (an address with a scheme, `//host`, `/absolute`, `#anchor` only, or
 * above the root). Percent-escapes are decoded (`Other%20Page.md`), `?query` and `#anchor`
 * dropped; `<...>` around a destination is Markdown's and is taken off.
 */
export const resolveReference = (from: string, reference: string): string | undefined => {
  let target = reference.trim();
  if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1);
  if (target === '' || target.startsWith('#') || target.startsWith('/')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  target = target.replace(/[?#].*$/, '');
  if (target === '') return undefined;
  const dir = dirname(from);
  return normalizePath(`${dir === '' ? '' : `${dir}/`}${decode(target)}`);
};

const MARKDOWN = new Set(['md', 'markdown', 'mdown', 'mkd']);
const IMAGES = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif']);

export const isMarkdownPath = (path: string): boolean => MARKDOWN.has(extension(path));
/** The formats the notes service's image pipeline takes (it recognises them by content). */
export const isImagePath = (path: string): boolean => IMAGES.has(extension(path));
