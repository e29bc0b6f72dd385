import { AppError } from '@noted/api';
import type { Logger } from '@noted/kit';
import { safeBaseName, uniqueNames } from './files.js';
import type { ExportImage } from './model.js';
import { noteMarkdown, noteSource, type ImageTargets } from './note-markdown.js';
import { notePages, storedImage, type NoteToExport, type NotesReader } from './notes-client.js';
import type { Renderers } from './renderers.js';
import { compressible, type ZipWriter } from './zip.js';

export interface ExportContext {
  notes: NotesReader;
  /** The origin people reach Noted at (no trailing slash). */
  publicUrl: string;
  /** Notes read per page while exporting everything. */
  pageSize: number;
  /** The PDF and PNG renderers (in the render sandbox; stand-ins in tests). */
  renderers: Renderers;
  logger: Logger;
}

/** Where the images of an exported note go in a zip. */
const IMAGES_DIR = 'images/';

/**
 * The note's images that can be read, in the note's order. One missing from the store (the
 * object lost, the note changed meanwhile) is left out and logged: it keeps its link.
 */
export const noteImages = async (
  ctx: ExportContext,
  userId: string,
  note: NoteToExport,
): Promise<ExportImage[]> => {
  const images: ExportImage[] = [];
  for (const url of note.images) {
    try {
      const image = await ctx.notes.image(userId, url);
      if (image) images.push(image);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
      ctx.logger.warn({ noteId: note.id, url }, 'an image of an exported note is missing');
    }
  }
  return images;
};

/** Each stored image URL (`/api/notes/…`) as an absolute link to this Noted. */
export const linkTargets = (publicUrl: string, urls: readonly string[]): ImageTargets =>
  new Map(urls.filter((url) => url.startsWith('/')).map((url) => [url, `${publicUrl}${url}`]));

/** The zip path of each image written beside the Markdown; the rest are linked. */
const bundleTargets = (
  publicUrl: string,
  urls: readonly string[],
  written: ReadonlyMap<string, string>,
): ImageTargets => {
  const targets = new Map(linkTargets(publicUrl, urls));
  for (const [url, path] of written) targets.set(url, path);
  return targets;
};

/** Writes a note's images into `images/` of the zip; answers where each went. */
const writeImages = async (zip: ZipWriter, images: readonly ExportImage[]) => {
  const written = new Map<string, string>();
  for (const image of images) {
    const name = storedImage(image.url)?.name;
    if (!name || written.has(image.url)) continue;
    const path = `${IMAGES_DIR}${name}`;
    await zip.add(path, image.bytes, { compress: compressible(image.contentType) });
    written.set(image.url, path);
  }
  return written;
};

/** One note as a `.md` file, its images as absolute links. */
export const noteMarkdownFile = async (ctx: ExportContext, userId: string, noteId: string) => {
  const note = await ctx.notes.note(userId, noteId);
  return {
    fileName: `${safeBaseName(note.title)}.md`,
    text: noteMarkdown(note, {
      source: noteSource(ctx.publicUrl, note.id),
      targets: linkTargets(ctx.publicUrl, note.images),
    }),
  };
};

/**
 * One note as a zip: `<title>.md` and its images in `images/`, referred to by relative paths.
 * The note and its images are read before the first byte, so a missing note is a plain 404.
 */
export const noteMarkdownBundle = async (ctx: ExportContext, userId: string, noteId: string) => {
  const note = await ctx.notes.note(userId, noteId);
  const images = await noteImages(ctx, userId, note);
  const base = safeBaseName(note.title);
  return {
    fileName: `${base}.zip`,
    write: async (zip: ZipWriter) => {
      const written = await writeImages(zip, images);
      const text = noteMarkdown(note, {
        source: noteSource(ctx.publicUrl, note.id),
        targets: bundleTargets(ctx.publicUrl, note.images, written),
      });
      await zip.add(`${base}.md`, text, { mtime: note.updatedAt });
    },
  };
};

/** A note and its images, as a renderer takes them. */
export const noteToRender = async (ctx: ExportContext, userId: string, noteId: string) => {
  const note = await ctx.notes.note(userId, noteId);
  return { note, images: await noteImages(ctx, userId, note), base: safeBaseName(note.title) };
};

/** One note in `manifest.json`. */
export interface ManifestNote {
  id: string;
  /** The Markdown file in the zip. */
  file: string;
  title: string;
  tags: string[];
  created: string;
  updated: string;
  /** Each image as the file refers to it: a path in the zip, or a link when it was missing. */
  images: string[];
}

/**
 * Everything: reads the user's notes page by page (the first page, with the count, already
 * read by the caller) and writes each into the zip as it comes, its images into `images/`,
 * then `manifest.json`. Holds one page of notes and one note's images at a time; the manifest
 * keeps a line per note (a few hundred bytes). Answers how many notes were written.
 */
export const exportEverything = async (
  ctx: ExportContext,
  userId: string,
  pages: AsyncIterator<{ notes: NoteToExport[] }>,
  zip: ZipWriter,
): Promise<number> => {
  const names = uniqueNames();
  const manifest: string[] = [];
  for (let page = await pages.next(); !page.done; page = await pages.next()) {
    for (const note of page.value.notes) {
      const images = await noteImages(ctx, userId, note);
      const written = await writeImages(zip, images);
      const file = names(safeBaseName(note.title), '.md');
      const targets = bundleTargets(ctx.publicUrl, note.images, written);
      await zip.add(
        file,
        noteMarkdown(note, { source: noteSource(ctx.publicUrl, note.id), targets }),
        { mtime: note.updatedAt },
      );
      const entry: ManifestNote = {
        id: note.id,
        file,
        title: note.title,
        tags: note.tags,
        created: note.createdAt.toISOString(),
        updated: note.updatedAt.toISOString(),
        images: note.images.map((url) => targets.get(url) ?? url),
      };
      manifest.push(JSON.stringify(entry));
    }
  }
  await zip.add(
    'manifest.json',
    `{"format":"noted-export","version":1,"exportedAt":${JSON.stringify(new Date().toISOString())},` +
      `"source":${JSON.stringify(ctx.publicUrl)},"count":${manifest.length},` +
      `"notes":[\n${manifest.join(',\n')}\n]}\n`,
  );
  return manifest.length;
};

/** The user's notes, page by page, with the count known from the first page. */
export const everythingPages = async (ctx: ExportContext, userId: string) => {
  const pages = notePages(ctx.notes, userId, ctx.pageSize);
  const first = await pages.next();
  const total = first.done ? 0 : first.value.total;
  // The first page goes back in front of the rest.
  let given = false;
  const iterator: AsyncIterator<{ notes: NoteToExport[] }> = {
    next: async () => {
      if (!given) {
        given = true;
        return first.done ? first : { done: false, value: first.value };
      }
      return pages.next();
    },
    return: async () => {
      await pages.return(undefined);
      return { done: true, value: undefined };
    },
  };
  return { total, pages: iterator };
};
