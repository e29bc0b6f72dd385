/**
 * Reading an import's upload, run in the export service's sandbox (`@noted/sandbox`): the
 * archive is inflated and the Markdown parsed in a process of its own, whose time and memory
 * are capped, so a file built to be costly fails its own import and never the service. Images
 * are unpacked to the upload's folder and only their places come back; the texts come back as
 * the plan's notes.
 */
import { open, readFile } from 'node:fs/promises';
import { AppError, NOTE_BODY_MAX_CHARS, NOTE_IMAGE_MAX_BYTES } from '@noted/api';
import type { TaskTools } from '@noted/sandbox';
import { notionName, planNotionExportImport } from './notion-export.js';
import { basename, extension, isImagePath, isMarkdownPath, normalizePath } from './paths.js';
import { planMarkdownImport, type ImportPlan } from './plan.js';
import { readZip, skipReasonOf, ZIP_LIMITS, type ImportFile, type ZipLimits } from './zip.js';

export interface ReadUploadTask {
  userId: string;
  /** The upload on disk, and the name the browser gave it. */
  file: string;
  name: string;
  size: number;
  /** A folder of the upload's own, where images are unpacked (removed with the upload). */
  dir: string;
  limits?: Partial<ZipLimits>;
  /** Files not to parse (an earlier read of them ran too long): passed over as TOO_COMPLEX. */
  exclude?: string[];
}

/**
 * What the task reports before it parses each Markdown file (its normalised path and length),
 * and once it has parsed them all (`parsing` null).
 */
export interface ReadProgress {
  parsing: string | null;
  chars: number;
}

export interface ReadUploadResult {
  /** Planned as if the user had none of the notes yet: the caller marks those they have. */
  plan: ImportPlan;
  /** Entries of the archive passed over while reading it, and why. */
  passedOver: { path: string; reason: string }[];
}

/** A Markdown file of a note's largest body (UTF-8: at most 4 bytes a character), front matter included. */
export const MARKDOWN_FILE_MAX_BYTES = NOTE_BODY_MAX_CHARS * 4 + 64 * 1024;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

const startsWith = async (file: string, magic: readonly Buffer[]) => {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && magic.some((m) => m.equals(head));
  } finally {
    await handle.close();
  }
};

/**
 * A Notion "Markdown & CSV" export: the zips a large one is split into, or Markdown files all
 * named as Notion names pages (`Title <32 hex id>.md`).
 */
export const isNotionExport = (files: readonly ImportFile[]): boolean => {
  if (files.some((file) => extension(file.path) === 'zip')) return true;
  const markdown = files.filter((file) => isMarkdownPath(file.path));
  return (
    markdown.length > 0 && markdown.every((file) => notionName(basename(file.path)) !== undefined)
  );
};

/** One file's limit by what it is: a note's text, an image, or anything else the archive's. */
const maxBytesOf = (limits: ZipLimits) => (path: string) => {
  if (isMarkdownPath(path)) return MARKDOWN_FILE_MAX_BYTES;
  if (isImagePath(path)) return NOTE_IMAGE_MAX_BYTES;
  // A large Notion export comes as parts as large as the whole.
  return extension(path) === 'zip' ? limits.maxTotalBytes : limits.maxFileBytes;
};

/** Reads and plans an upload: a zip (Noted's, Obsidian's, Notion's export) or one Markdown file. */
export const readUpload = async (
  task: ReadUploadTask,
  tools?: TaskTools,
): Promise<ReadUploadResult> => {
  const limits = { ...ZIP_LIMITS, ...task.limits };
  const watch = {
    exclude: new Set(task.exclude),
    onParse: (path: string, chars: number) =>
      tools?.progress({ parsing: path, chars } satisfies ReadProgress),
    onParsed: () => tools?.progress({ parsing: null, chars: 0 } satisfies ReadProgress),
  };
  const named = normalizePath(basename(task.name.replace(/\\/g, '/'))) ?? 'import';
  const kind = extension(named);
  const existing = new Set<string>();
  if (kind === 'zip' || (await startsWith(task.file, [ZIP_MAGIC, EMPTY_ZIP_MAGIC]))) {
    const zip = {
      limits,
      maxBytesOf: maxBytesOf(limits),
      // Images are only uploaded, never read here: they wait on disk.
      store: { dir: task.dir, when: (path: string) => !/\.(md|markdown|csv)$/i.test(path) },
    };
    const content = await readZip(task.file, zip);
    const passedOver = content.ignored.map((entry) => ({
      path: entry.path,
      reason: skipReasonOf(entry),
    }));
    const plan = isNotionExport(content.files)
      ? await planNotionExportImport({
          userId: task.userId,
          files: content.files,
          existing,
          zip: { ...zip, used: content.used },
          watch,
        })
      : await planMarkdownImport({ userId: task.userId, files: content.files, existing, watch });
    return { plan, passedOver };
  }
  if (kind === 'txt' || isMarkdownPath(named)) {
    if (task.size > MARKDOWN_FILE_MAX_BYTES) {
      throw new AppError(
        'IMPORT_TOO_LARGE',
        `A Markdown file is read up to ${Math.floor(MARKDOWN_FILE_MAX_BYTES / (1024 * 1024))} MB: a note holds ${NOTE_BODY_MAX_CHARS.toLocaleString('en')} characters`,
        { reason: 'NOTE_TOO_LONG', limit: MARKDOWN_FILE_MAX_BYTES },
      );
    }
    // A .txt file is Markdown by another name; it keeps its name, so its id stays the same.
    const path = kind === 'txt' ? `${named}.md` : named;
    const files = [{ path, bytes: await readFile(task.file) }];
    return {
      plan: await planMarkdownImport({ userId: task.userId, files, existing, watch }),
      passedOver: [],
    };
  }
  throw new AppError(
    'IMPORT_UNSUPPORTED',
    'Import takes a Markdown file (.md, .markdown, .txt) or a .zip of them, or a Notion export',
  );
};
