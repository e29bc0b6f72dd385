import { stringify } from 'yaml';
import type { ExportNote } from './model.js';

/** Where each of a note's image URLs points in the exported file (an absolute link, or a path). */
export type ImageTargets = ReadonlyMap<string, string>;

/** The note's page in Noted, the front matter's `source`. */
export const noteSource = (publicUrl: string, noteId: string) => `${publicUrl}/notes/${noteId}`;

/**
 * YAML front matter: title, tags, created, updated (ISO 8601, UTC), source, and the note's
 * images as the file refers to them. Strings that a YAML 1.1 reader would take for something
 * else (`yes`, `on`, a date) are quoted, so every reader gets the same values.
 */
export const frontMatter = (note: ExportNote, source: string, images: readonly string[] = []) =>
  `---\n${stringify(
    {
      title: note.title,
      tags: note.tags,
      created: note.createdAt.toISOString(),
      updated: note.updatedAt.toISOString(),
      source,
      ...(images.length > 0 ? { images } : {}),
    },
    { compat: 'yaml-1.1', lineWidth: 0 },
  )}---\n`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The body with each of the note's image URLs replaced by its target, only where the URL stands
 * on its own (`](/api/notes/…/x.webp)`, `<img src="…">`), never inside a longer address.
 */
export const rewriteImageUrls = (body: string, targets: ImageTargets): string => {
  let rewritten = body;
  for (const [url, target] of targets) {
    if (url === target) continue;
    const standalone = new RegExp(`(?<![\\w.~:/%-])${escapeRegExp(url)}(?![\\w.~%/-])`, 'g');
    rewritten = rewritten.replace(standalone, () => target);
  }
  return rewritten;
};

/**
 * One note as a Markdown file: front matter, then the body exactly as stored from the line after
 * the closing `---` (image URLs rewritten), so an import gives back the same text.
 */
export const noteMarkdown = (
  note: ExportNote & { images: readonly string[] },
  options: { source: string; targets: ImageTargets },
): string => {
  const images = note.images.map((url) => options.targets.get(url) ?? url);
  return `${frontMatter(note, options.source, images)}${rewriteImageUrls(note.body, options.targets)}`;
};
