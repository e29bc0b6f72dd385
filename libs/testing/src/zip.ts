import yauzl from 'yauzl';

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
