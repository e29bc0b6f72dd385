import yazl from 'yazl';

export interface ZipEntryFixture {
  name: string;
  data: string | Uint8Array;
  /** Deflate (default) or store. */
  compress?: boolean;
}

/** A zip of the entries, written by yazl (what the export service writes with). */
export const zipOf = (entries: readonly ZipEntryFixture[]): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const entry of entries) {
      const data =
        typeof entry.data === 'string' ? Buffer.from(entry.data) : Buffer.from(entry.data);
      zip.addBuffer(data, entry.name, {
        compress: entry.compress ?? true,
        mtime: new Date('2024-01-01T00:00:00Z'),
      });
    }
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });

/**
 * The zip with every occurrence of one name's bytes replaced by another of the same length,
 * in the local headers and the central directory alike: how a test makes entries that yazl
 * would refuse to write (`../x.md`, `/x.md`).
 */
export const renameInZip = (zip: Buffer, from: string, to: string): Buffer => {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error('names must have the same length');
  const out = Buffer.from(zip);
  for (let at = out.indexOf(a); at >= 0; at = out.indexOf(a, at + 1)) b.copy(out, at);
  return out;
};

/** The zip with the uncompressed size the central directory gives its first entry replaced. */
export const claimSize = (zip: Buffer, size: number): Buffer => {
  const out = Buffer.from(zip);
  const central = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  if (central < 0) throw new Error('no central directory');
  out.writeUInt32LE(size, central + 24);
  return out;
};

/** A tiny valid PNG (1×1, red), as a camera or a screenshot tool would store one. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
