import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** Already compressed formats, stored as they are: deflating them again only costs time. */
const STORED_TYPES = /^image\/(webp|jpeg|png|gif|avif)$/;

export const compressible = (contentType: string) => !STORED_TYPES.test(contentType);

/**
 * A zip written as a stream (yazl: ZIP64 when the entries or the size need it, UTF-8 names),
 * one entry at a time. `add` resolves once the zip has taken the entry's bytes, which it does
 * only as fast as the reader reads, so a caller that awaits each entry holds one entry in
 * memory however large the archive grows.
 */
export const createZipWriter = () => {
  const zip = new ZipFile();
  // A PassThrough, typed by @types/yazl as the older NodeJS.ReadableStream.
  const output = zip.outputStream as Readable;
  let failed: Error | undefined;
  /** Rejects the entry being written, when the zip stops under it. */
  let stopWaiting: ((error: Error) => void) | undefined;
  const fail = (error: Error) => {
    failed ??= error;
    stopWaiting?.(failed);
    output.destroy(failed);
  };
  zip.on('error', fail);
  output.once('close', () => {
    if (!output.readableEnded) fail(new Error('The zip was closed before its end'));
  });

  const add = (
    name: string,
    data: Buffer | string,
    options: { compress?: boolean; mtime?: Date } = {},
  ) =>
    new Promise<void>((resolve, reject) => {
      if (failed) {
        reject(failed);
        return;
      }
      stopWaiting = reject;
      let bytes: Buffer | undefined = typeof data === 'string' ? Buffer.from(data) : data;
      zip.addReadStreamLazy(
        name,
        {
          size: bytes.length,
          compress: options.compress ?? true,
          mtime: options.mtime ?? new Date(),
        },
        (give) => {
          // yazl keeps this function with the entry until the zip ends: it must not keep the bytes.
          const source = Readable.from([bytes as Buffer], { objectMode: false });
          bytes = undefined;
          source.once('end', () => {
            stopWaiting = undefined;
            resolve();
          });
          give(null, source);
        },
      );
    });

  return {
    /** The zip's bytes, as they are written. */
    stream: output,
    add,
    /** Writes the central directory: the zip is complete once `stream` ends. */
    end: () => zip.end(),
    /** Stops the zip: its stream errors (a reader sees it broken, never complete). */
    abort: fail,
  };
};

export type ZipWriter = ReturnType<typeof createZipWriter>;
