import yauzl from 'yauzl';
import yazl from 'yazl';

/** One entry of a zip, read whole. */
export interface ZipEntryRead {
  name: string;
  bytes: Buffer;
  /** 0 stored, 8 deflated. */
  compressionMethod: number;
}

/**
 * Every entry of a zip, in order, with its bytes (CRCs and sizes checked by yauzl). Rejects a
 * zip that is not whole: no end of central directory, or an entry cut short.
 */
export const readZip = (zip: Buffer): Promise<ZipEntryRead[]> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, decodeStrings: true }, (error, file) => {
      if (error || !file) {
        reject(error ?? new Error('No zip'));
        return;
      }
      const entries: ZipEntryRead[] = [];
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) {
            reject(streamError ?? new Error(`No stream for ${entry.fileName}`));
            return;
          }
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              bytes: Buffer.concat(parts),
              compressionMethod: entry.compressionMethod,
            });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });

/** A zip of these files (name and content), deflated, as an archiver would write it. */
export const zipOf = (
  files: readonly { name: string; data: string | Uint8Array }[],
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const file of files) {
      zip.addBuffer(Buffer.from(file.data), file.name, { mtime: new Date('2024-01-01T00:00:00Z') });
    }
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
