import { AppError } from '@noted/api';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { basename, isImagePath, isMarkdownPath, normalizePath } from './paths.js';

/** One file of an import: its normalised path and its bytes. */
export interface ImportFile {
  path: string;
  bytes: Uint8Array;
}

/** How much one archive may hold; past any of them it is refused as a whole. */
export interface ZipLimits {
  /** Entries in the archive's directory, read or not. */
  maxEntries: number;
  /** Bytes inflated, all files taken together. */
  maxTotalBytes: number;
  /** Bytes of one file taken. */
  maxFileBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 20_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
};

/** Why an entry was passed over (the archive is still read). */
export type IgnoredReason = 'UNSAFE_PATH' | 'ENCRYPTED' | 'NOT_TAKEN';

export interface ZipContent {
  files: ImportFile[];
  ignored: { path: string; reason: IgnoredReason }[];
}

/** Codes in `details.reason` of the AppErrors a refused archive throws. */
export type ZipRefusal =
  'ZIP_TOO_MANY_ENTRIES' | 'ZIP_TOO_LARGE' | 'ZIP_ENTRY_TOO_LARGE' | 'ZIP_INVALID';

const refused = (reason: ZipRefusal, message: string, limit?: number) =>
  new AppError(
    reason === 'ZIP_INVALID' ? 'ZIP_INVALID' : 'PAYLOAD_TOO_LARGE',
    message,
    limit === undefined ? { reason } : { reason, limit },
  );

/** The files an import reads: Markdown, images, Notion's CSV, and zips nested in an export. */
export const takeImportFile = (path: string): boolean =>
  isMarkdownPath(path) || isImagePath(path) || /\.(csv|zip)$/i.test(path);

/** Files an archiver or a desktop adds that are nobody's content. */
const isNoise = (path: string) =>
  path.startsWith('__MACOSX/') || basename(path) === '.DS_Store' || basename(path).startsWith('._');

const open = (source: string | Buffer): Promise<ZipFile> =>
  new Promise((resolve, reject) => {
    // Names are decoded here rather than by yauzl: it fails the whole archive on one unsafe
    // name, where an unsafe entry should only be passed over. Sizes are checked here too:
    // yauzl 2's check stops the stream without ever emitting its error (the read would hang).
    const options = { lazyEntries: true, decodeStrings: false, validateEntrySizes: false };
    const done = (error: Error | null, zip?: ZipFile) =>
      error || !zip ? reject(error ?? new Error('no zip')) : resolve(zip);
    if (typeof source === 'string') yauzl.open(source, options, done);
    else yauzl.fromBuffer(source, options, done);
  });

const openStream = (zip: ZipFile, entry: Entry): Promise<Readable> =>
  new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );

const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An entry's name: UTF-8 when the archive says so (flag bit 11, or Info-ZIP's Unicode path
 * field), else UTF-8 when the bytes are valid UTF-8 (Info-ZIP and macOS write it unflagged),
 * else the format's default, code page 437.
 */
export const entryName = (
  raw: Buffer,
  flags: number,
  extraFields: readonly { id: number; data: Buffer }[],
): string => {
  if (flags & 0x800) return raw.toString('utf8');
  const unicodePath = extraFields.find((field) => field.id === 0x7075 && field.data[0] === 1);
  if (unicodePath && unicodePath.data.length > 5)
    return unicodePath.data.subarray(5).toString('utf8');
  try {
    return utf8.decode(raw);
  } catch {
    return [...raw]
      .map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80]))
      .join('');
  }
};

/** Absolute (`/etc`, `C:`), or climbing out (`..`): never a file of the import. */
const isUnsafe = (name: string) => {
  const path = name.replace(/\\/g, '/');
  return /^([a-zA-Z]:|\/)/.test(path) || path.split('/').includes('..');
};

/**
 * Reads a `.zip` (a path on disk, or bytes) one entry at a time, keeping the files `take`
 * accepts. Bounded: more than `maxEntries` entries, a file past `maxFileBytes` or all files
 * past `maxTotalBytes` (counted as they inflate, whatever the headers claim) refuse the archive
 * with PAYLOAD_TOO_LARGE and `details.reason` (ZipRefusal); a damaged archive is ZIP_INVALID. Entries whose names climb out (`../`, `/abs`, `C:`), encrypted ones and the
 * files not taken are passed over and listed in `ignored`.
 */
export const readZip = async (
  source: string | Buffer,
  options: { limits?: Partial<ZipLimits>; take?: (path: string) => boolean } = {},
): Promise<ZipContent> => {
  const limits = { ...ZIP_LIMITS, ...options.limits };
  const take = options.take ?? takeImportFile;
  let zip: ZipFile;
  try {
    zip = await open(source);
  } catch {
    throw refused('ZIP_INVALID', 'The file is not a zip archive that can be read');
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw refused(
      'ZIP_TOO_MANY_ENTRIES',
      `The archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are read`,
      limits.maxEntries,
    );
  }

  const content: ZipContent = { files: [], ignored: [] };
  let total = 0;

  const readEntry = async (entry: Entry, path: string): Promise<Uint8Array> => {
    if (entry.uncompressedSize > limits.maxFileBytes) {
      throw refused(
        'ZIP_ENTRY_TOO_LARGE',
        `${path} is larger than ${limits.maxFileBytes} bytes`,
        limits.maxFileBytes,
      );
    }
    const stream = await openStream(zip, entry);
    // Events, not `for await`: yauzl's own destroy() never emits 'close', which the async
    // iterator would wait for after an error.
    return new Promise<Uint8Array>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: AppError) => {
        stream.removeAllListeners('data');
        stream.destroy();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        total += chunk.length;
        if (size > entry.uncompressedSize) {
          fail(
            refused(
              'ZIP_INVALID',
              `The zip archive is damaged: ${path} holds more than its header says`,
            ),
          );
        } else if (size > limits.maxFileBytes) {
          fail(
            refused(
              'ZIP_ENTRY_TOO_LARGE',
              `${path} is larger than ${limits.maxFileBytes} bytes`,
              limits.maxFileBytes,
            ),
          );
        } else if (total > limits.maxTotalBytes) {
          fail(
            refused(
              'ZIP_TOO_LARGE',
              `The archive holds more than ${limits.maxTotalBytes} bytes`,
              limits.maxTotalBytes,
            ),
          );
        } else chunks.push(chunk);
      });
      stream.on('error', () =>
        fail(refused('ZIP_INVALID', `The zip archive is damaged: ${path} cannot be read`)),
      );
      stream.on('end', () =>
        size === entry.uncompressedSize
          ? resolve(Buffer.concat(chunks))
          : fail(refused('ZIP_INVALID', `The zip archive is damaged: ${path} is cut short`)),
      );
    });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(refused('ZIP_INVALID', 'The zip archive is damaged')));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        void (async () => {
          const raw = entry.fileName as unknown as Buffer;
          const name = entryName(raw, entry.generalPurposeBitFlag, entry.extraFields);
          if (name.endsWith('/')) return;
          const path = isUnsafe(name) ? undefined : normalizePath(name);
          if (path === undefined) {
            content.ignored.push({ path: name, reason: 'UNSAFE_PATH' });
          } else if (isNoise(path)) {
            // Not listed: nobody put them there on purpose.
          } else if (!take(path)) {
            content.ignored.push({ path, reason: 'NOT_TAKEN' });
          } else if (entry.isEncrypted()) {
            content.ignored.push({ path, reason: 'ENCRYPTED' });
          } else {
            content.files.push({ path, bytes: await readEntry(entry, path) });
          }
        })().then(
          () => zip.readEntry(),
          (error: unknown) =>
            reject(
              error instanceof AppError
                ? error
                : refused('ZIP_INVALID', 'The zip archive is damaged: an entry cannot be read'),
            ),
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return content;
};
