import {
  AppError,
  MARKDOWN_MAX_DEPTH,
  markdownDepth,
  NOTE_BODY_MAX_CHARS,
  NOTE_IMAGE_MAX_BYTES,
  NOTE_IMAGES_MAX,
} from '@noted/api';
import { importNoteId, type ImportSource } from './ids.js';
import {
  findReferences,
  imageMarkdown,
  parseMarkdown,
  type FindByName,
  type ImportedNote,
  type Reference,
} from './markdown.js';
import { basename, isImagePath, isMarkdownPath, withoutExtension } from './paths.js';
import { sizeOf, type ImportFile } from './zip.js';

/** How much of an import's images a plan keeps. */
export interface PlanLimits {
  /** One image; larger ones are left out (the image pipeline refuses them anyway). */
  maxImageBytes: number;
  /** Images of one note. */
  maxImagesPerNote: number;
  /** All images of the import together. */
  maxTotalImageBytes: number;
}

export const PLAN_LIMITS: PlanLimits = {
  maxImageBytes: NOTE_IMAGE_MAX_BYTES,
  maxImagesPerNote: NOTE_IMAGES_MAX,
  maxTotalImageBytes: 256 * 1024 * 1024,
};

/** An image a planned note shows: uploaded to the note, then its references point there. */
export interface PlannedImage {
  /** Normalised path in the import. */
  path: string;
  fileName: string;
  /** Its bytes, or where they are on disk. */
  file: ImportFile;
}

/** Where a planned note's body shows one local image (offsets in `body`). */
export interface ImageSlot {
  start: number;
  end: number;
  path: string;
  alt: string;
}

export interface PlannedNote {
  /** Deterministic: the same user, source and file always plan the same id. */
  id: string;
  sourcePath: string;
  /** The user has this note already (an earlier import): it is updated, not created. */
  exists: boolean;
  title: string;
  /** Links to other imported files are `[[Title]]`; local images are still as written. */
  body: string;
  tags: string[];
  createdAt?: string;
  updatedAt?: string;
  images: PlannedImage[];
  imageSlots: ImageSlot[];
}

export type SkipReason =
  | 'NOT_MARKDOWN'
  | 'DUPLICATE'
  | 'NOTE_TOO_LONG'
  | 'IMAGE_MISSING'
  | 'NOT_AN_IMAGE'
  | 'IMAGE_TOO_LARGE'
  | 'TOO_MANY_IMAGES'
  | 'IMAGES_TOO_LARGE'
  | 'UNREFERENCED_IMAGE'
  /** Nested deeper than a Markdown reader takes (markdownDepth): never parsed. */
  | 'TOO_COMPLEX'
  /** Larger than the archive reader takes for such a file: never inflated. */
  | 'TOO_LARGE'
  /** Entries of an archive passed over (zip.ts IgnoredReason). */
  | 'UNSAFE_PATH'
  | 'ENCRYPTED';

/** Something of the import that will not be in Noted, and why (for the summary shown). */
export interface Skipped {
  path: string;
  reason: SkipReason;
  /** The note that referred to it, for an image. */
  note?: string;
}

export interface ImportPlan {
  source: ImportSource;
  /** In a stable order (by source path). */
  notes: PlannedNote[];
  /** Notes the import makes: what the monthly allowance is checked against. */
  toCreate: number;
  /** Notes an earlier import made, updated in place (no allowance taken). */
  toUpdate: number;
  imageBytes: number;
  skipped: Skipped[];
}

/**
 * Which of the planned ids the user has already: a set, or a look-up called with at most 100
 * ids at a time (the notes service's batch read answers the notes found).
 */
export type ExistingNotes = ReadonlySet<string> | ((ids: string[]) => Promise<Iterable<string>>);

const LOOKUP_BATCH = 100;

const existingIds = async (ids: string[], existing: ExistingNotes): Promise<Set<string>> => {
  if (typeof existing !== 'function') return new Set(ids.filter((id) => existing.has(id)));
  const found = new Set<string>();
  for (let at = 0; at < ids.length; at += LOOKUP_BATCH) {
    for (const id of await existing(ids.slice(at, at + LOOKUP_BATCH))) found.add(id);
  }
  return found;
};

const byPath = (a: { sourcePath: string }, b: { sourcePath: string }) =>
  a.sourcePath < b.sourcePath ? -1 : a.sourcePath > b.sourcePath ? 1 : 0;

/** `[[...]]` cannot hold these; a linked note's title loses them so that its links can name it. */
const wikiSafe = (title: string) =>
  title.replace(/\[/g, '(').replace(/\]/g, ')').replace(/\|/g, '/');

/**
 * Titles made distinct (case-insensitively, as `[[Title]]` resolves): the first note in path
 * order keeps its title, the next ones get ` (2)`, ` (3)`, ...
 */
const distinctTitles = (notes: readonly ImportedNote[], linked: ReadonlySet<string>) => {
  const taken = new Set<string>();
  const titles = new Map<string, string>();
  for (const note of notes) {
    const base = linked.has(note.sourcePath) ? wikiSafe(note.title) : note.title;
    let title = base;
    for (let n = 2; taken.has(title.toLowerCase()); n += 1) title = `${base} (${n})`;
    taken.add(title.toLowerCase());
    titles.set(note.sourcePath, title);
  }
  return titles;
};

/** A case-insensitive look-up of paths, for references whose case differs from the file's. */
const pathIndex = (paths: Iterable<string>) => {
  const exact = new Set(paths);
  const folded = new Map<string, string>();
  for (const path of [...exact].sort()) {
    if (!folded.has(path.toLowerCase())) folded.set(path.toLowerCase(), path);
  }
  return (path: string) => (exact.has(path) ? path : folded.get(path.toLowerCase()));
};

/**
 * Obsidian's rule for `[[Name]]` and `![[file.png]]`: a path (with or without `.md`), else the
 * first file (in path order) of that name.
 */
export const nameIndex = (paths: Iterable<string>): FindByName => {
  const all = [...new Set(paths)].sort();
  const find = pathIndex(all);
  const byName = new Map<string, string>();
  for (const path of all) {
    for (const name of [basename(path), withoutExtension(basename(path))]) {
      if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), path);
    }
  }
  return (name) => find(name) ?? find(`${name}.md`) ?? byName.get(name.toLowerCase());
};

export interface PlanInput {
  userId: string;
  source: ImportSource;
  notes: readonly ImportedNote[];
  /** The import's files by normalised path (images are taken from here). */
  files: ReadonlyMap<string, ImportFile>;
  existing: ExistingNotes;
  limits?: Partial<PlanLimits>;
  /** Resolves `[[Name]]`/`![[file]]` as the notes were parsed with; default by file name. */
  findByName?: FindByName;
  /** Already skipped while reading (passed through to the plan's list). */
  skipped?: readonly Skipped[];
}

/**
 * What an import will do, before it does anything: one note per imported note with an id that
 * the same user, source and key always give, links between imported files written as
 * `[[Title]]` (titles made distinct), the images each note shows with their bytes, and how
 * many notes are new (checked against the allowance with assertNotesLeft) or updated.
 */
export const planImport = async (input: PlanInput): Promise<ImportPlan> => {
  const limits = { ...PLAN_LIMITS, ...input.limits };
  const skipped: Skipped[] = [...(input.skipped ?? [])];
  const seen = new Set<string>();
  const notes = [...input.notes].sort(byPath).filter((note) => {
    if (seen.has(note.key)) {
      skipped.push({ path: note.sourcePath, reason: 'DUPLICATE' });
      return false;
    }
    seen.add(note.key);
    return true;
  });

  const noteAt = pathIndex(notes.map((note) => note.sourcePath));
  const linked = new Set(
    notes.flatMap((note) => note.links.map(noteAt).filter((p): p is string => p !== undefined)),
  );
  const titles = distinctTitles(notes, linked);
  const findFile = pathIndex(input.files.keys());
  const findByName =
    input.findByName ?? nameIndex([...input.files.keys(), ...notes.map((note) => note.sourcePath)]);
  const usedImages = new Set<string>();
  let imageBytes = 0;

  const planned: PlannedNote[] = [];
  for (const note of notes) {
    const linkTo = (reference: Reference): string | undefined => {
      const target = noteAt(reference.path);
      if (target === undefined || (reference.kind !== 'link' && reference.kind !== 'wiki')) {
        return undefined;
      }
      const title = titles.get(target) ?? '';
      const text = (reference.text ?? '').replace(/[[\]|\n]/g, ' ').trim();
      return text === '' || text.toLowerCase() === title.toLowerCase()
        ? `[[${title}]]`
        : `[[${title}|${text}]]`;
    };
    // One pass: links become [[Title]], images stay and their places move with the text.
    const references = note.references ?? findReferences(note.body, note.sourcePath, findByName);
    let body = '';
    let at = 0;
    const shownAt: { start: number; end: number; path: string; alt: string }[] = [];
    for (const reference of references) {
      if (reference.start < at) continue;
      if (reference.kind === 'image' || reference.kind === 'embed') {
        const start = body.length + reference.start - at;
        shownAt.push({
          start,
          end: start + reference.end - reference.start,
          path: reference.path,
          alt: reference.text ?? '',
        });
        continue;
      }
      const replacement = linkTo(reference);
      if (replacement === undefined) continue;
      body += note.body.slice(at, reference.start) + replacement;
      at = reference.end;
    }
    body += note.body.slice(at);
    if (body.length > NOTE_BODY_MAX_CHARS) {
      skipped.push({ path: note.sourcePath, reason: 'NOTE_TOO_LONG' });
      continue;
    }

    const images: PlannedImage[] = [];
    const imageSlots: ImageSlot[] = [];
    let noteImageBytes = 0;
    const refused = (path: string, reason: SkipReason) =>
      skipped.push({ path, reason, note: note.sourcePath });
    const take = (reference: string, slot?: Omit<ImageSlot, 'path'>) => {
      const path = findFile(reference);
      if (path !== undefined && images.some((image) => image.path === path)) {
        if (slot) imageSlots.push({ ...slot, path });
        return;
      }
      const file = path === undefined ? undefined : input.files.get(path);
      const size = file === undefined ? 0 : sizeOf(file);
      if (path === undefined || file === undefined) refused(reference, 'IMAGE_MISSING');
      else if (!isImagePath(path)) refused(path, 'NOT_AN_IMAGE');
      else if (size > limits.maxImageBytes) refused(path, 'IMAGE_TOO_LARGE');
      else if (images.length >= limits.maxImagesPerNote) refused(path, 'TOO_MANY_IMAGES');
      else if (imageBytes + noteImageBytes + size > limits.maxTotalImageBytes) {
        refused(path, 'IMAGES_TOO_LARGE');
      } else {
        images.push({ path, fileName: basename(path), file });
        if (slot) imageSlots.push({ ...slot, path });
        noteImageBytes += size;
        usedImages.add(path);
      }
    };
    const shown = new Set<string>();
    for (const { path, ...slot } of shownAt) {
      shown.add(path);
      take(path, slot);
    }
    // Images the note has without showing them (Noted's export lists them in front matter).
    for (const path of note.imageRefs) if (!shown.has(path)) take(path);
    imageBytes += noteImageBytes;
    planned.push({
      id: importNoteId(input.userId, input.source, note.key),
      sourcePath: note.sourcePath,
      exists: false,
      title: titles.get(note.sourcePath) ?? note.title,
      body,
      tags: note.tags,
      ...(note.createdAt ? { createdAt: note.createdAt } : {}),
      ...(note.updatedAt ? { updatedAt: note.updatedAt } : {}),
      images,
      imageSlots,
    });
  }

  for (const path of [...input.files.keys()].sort()) {
    if (isImagePath(path) && !usedImages.has(path)) {
      skipped.push({ path, reason: 'UNREFERENCED_IMAGE' });
    }
  }

  return markExisting(
    { source: input.source, notes: planned, toCreate: 0, toUpdate: 0, imageBytes, skipped },
    input.existing,
  );
};

/**
 * Marks the planned notes the user has already (an earlier import made them: they are updated)
 * and counts what is new. A plan made where the user's notes cannot be asked (the sandbox that
 * reads an upload) is made with no existing notes and marked afterwards.
 */
export const markExisting = async (
  plan: ImportPlan,
  existing: ExistingNotes,
): Promise<ImportPlan> => {
  const found = await existingIds(
    plan.notes.map((note) => note.id),
    existing,
  );
  for (const note of plan.notes) note.exists = found.has(note.id);
  const toUpdate = plan.notes.filter((note) => note.exists).length;
  return { ...plan, toCreate: plan.notes.length - toUpdate, toUpdate };
};

/**
 * Paths without the one folder every file is in (`notes/a.md` from `notes.zip` is `a.md`), so
 * that the same files give the same ids whether zipped in a folder or sent one by one.
 */
export const withoutCommonFolder = (files: readonly ImportFile[]): ImportFile[] => {
  const first = files[0]?.path.split('/')[0];
  if (first === undefined || !files.every((file) => file.path.startsWith(`${first}/`))) {
    return [...files];
  }
  return files.map((file) => ({ ...file, path: file.path.slice(first.length + 1) }));
};

/** The text of a file of an import that was read into memory (Markdown, CSV). */
export const importText = (file: ImportFile): string => {
  if (!('bytes' in file)) throw new Error(`${file.path} was not read into memory`);
  return new TextDecoder('utf-8').decode(file.bytes);
};

/** Front matter beyond the body a note may hold: a file that long is still read. */
const FRONT_MATTER_ROOM = 64 * 1024;

/**
 * A Markdown file's text, or why it is never parsed: longer than any note may be
 * (NOTE_TOO_LONG), or nested deeper than a Markdown reader takes in reasonable time
 * (TOO_COMPLEX, see markdownDepth).
 */
export const noteText = (file: ImportFile): string | 'NOTE_TOO_LONG' | 'TOO_COMPLEX' => {
  const text = importText(file);
  if (text.length > NOTE_BODY_MAX_CHARS + FRONT_MATTER_ROOM) return 'NOTE_TOO_LONG';
  return markdownDepth(text) > MARKDOWN_MAX_DEPTH ? 'TOO_COMPLEX' : text;
};

/** How Markdown files are read into notes, where someone watches (the import's sandbox). */
export interface ParseWatch {
  /** Files not to parse: passed over as TOO_COMPLEX (an earlier read of them ran too long). */
  exclude?: ReadonlySet<string>;
  /** Called before each file is parsed, with its path and size. */
  onParse?: (path: string, bytes: number) => void;
  /** Called once every file is parsed. */
  onParsed?: () => void;
}

/** A Markdown file's text to parse, or why it is not parsed (see noteText, ParseWatch). */
export const watchedText = (
  file: ImportFile,
  watch: ParseWatch = {},
): string | 'NOTE_TOO_LONG' | 'TOO_COMPLEX' => {
  if (watch.exclude?.has(file.path)) return 'TOO_COMPLEX';
  const text = noteText(file);
  if (text !== 'NOTE_TOO_LONG' && text !== 'TOO_COMPLEX') watch.onParse?.(file.path, text.length);
  return text;
};

/** The notes of a set of Markdown files and images (one file, several, or a zip's content). */
export const markdownNotes = (
  files: readonly ImportFile[],
  watch: ParseWatch = {},
): {
  notes: ImportedNote[];
  files: Map<string, ImportFile>;
  findByName: FindByName;
  skipped: Skipped[];
} => {
  const rooted = withoutCommonFolder(files);
  const byPath = new Map(rooted.map((file) => [file.path, file]));
  const findByName = nameIndex(byPath.keys());
  const notes: ImportedNote[] = [];
  const skipped: Skipped[] = [];
  for (const file of rooted) {
    if (!isMarkdownPath(file.path)) continue;
    const text = watchedText(file, watch);
    if (text === 'NOTE_TOO_LONG' || text === 'TOO_COMPLEX') {
      skipped.push({ path: file.path, reason: text });
    } else notes.push(parseMarkdown(file.path, text, { findByName }));
  }
  watch.onParsed?.();
  // Images are the plan's to judge; anything else no note shows is left out here.
  const shown = new Set(notes.flatMap((note) => note.imageRefs));
  for (const f of rooted) {
    if (!isMarkdownPath(f.path) && !isImagePath(f.path) && !shown.has(f.path)) {
      skipped.push({ path: f.path, reason: 'NOT_MARKDOWN' });
    }
  }
  return { notes, files: byPath, findByName, skipped };
};

/** Plans the import of Markdown files (and the images they show), as `.md` files or a zip. */
export const planMarkdownImport = (input: {
  userId: string;
  files: readonly ImportFile[];
  existing: ExistingNotes;
  limits?: Partial<PlanLimits>;
  watch?: ParseWatch;
}): Promise<ImportPlan> => {
  const { notes, files, findByName, skipped } = markdownNotes(input.files, input.watch);
  return planImport({
    userId: input.userId,
    source: 'markdown',
    notes,
    files,
    findByName,
    skipped,
    existing: input.existing,
    ...(input.limits ? { limits: input.limits } : {}),
  });
};

/**
 * Refuses, before anything is written, an import that makes more notes than the month has
 * left: NOTES_LEFT_NOT_ENOUGH with `details: { needed, left }`. `left` null is no limit.
 */
export const assertNotesLeft = (plan: ImportPlan, left: number | null): void => {
  if (left === null || plan.toCreate <= left) return;
  throw new AppError(
    'NOTES_LEFT_NOT_ENOUGH',
    `This import makes ${plan.toCreate} new notes and ${Math.max(left, 0)} are left this month`,
    { needed: plan.toCreate, left: Math.max(left, 0) },
  );
};

/** A planned note's body with its local images pointing at their stored URLs (by path). */
export const bodyWithImages = (note: PlannedNote, urls: ReadonlyMap<string, string>): string => {
  let out = '';
  let at = 0;
  for (const slot of note.imageSlots) {
    const url = urls.get(slot.path);
    if (url === undefined) continue;
    out += note.body.slice(at, slot.start) + imageMarkdown(slot.alt || basename(slot.path), url);
    at = slot.end;
  }
  return out + note.body.slice(at);
};
