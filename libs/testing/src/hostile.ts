/**
 * Input built to cost a server its memory or its time, as a hostile signed-in user sends it:
 * archives that inflate past any sensible size, Markdown whose structure a parser pays for
 * quadratically, a PDF stream inflating to gigabytes, an image that decodes to gigabytes,
 * YAML aliases and prototype keys, a truncated archive, deeply nested JSON. The abuse suite
 * (`services/noted/src/abuse.test.ts`) and benchmark (`test/bench/abuse.ts`) send
 * them; every one is small to send.
 */
import { crc32, createDeflate } from 'node:zlib';
import yazl from 'yazl';

const MB = 1024 * 1024;

/** The deflated bytes of what `write` pushes, streamed: nothing inflated is held whole. */
const deflated = async (write: (push: (chunk: Buffer) => Promise<void>) => Promise<void>) => {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  await write(async (chunk) => {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  });
  deflate.end();
  await done;
  return Buffer.concat(chunks);
};

/** A zip of `files` (yazl, deflated), with each file's bytes made by `data`. */
const zipFrom = (files: readonly { name: string; data: Buffer }[]): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const file of files) {
      zip.addBuffer(file.data, file.name, { mtime: new Date('2024-01-01T00:00:00Z') });
    }
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });

/** 16 Markdown files of 15 MB each: 240 MB inflated from about 600 KB. */
export const zipBombBySize = (): Promise<Buffer> => {
  const page = Buffer.alloc(15 * MB, 'a');
  return zipFrom(Array.from({ length: 16 }, (_, i) => ({ name: `bomb-${i}.md`, data: page })));
};

/** One Markdown file just under what a note's file may be, inflating 1,000 times its size. */
export const zipBombByRatio = (): Promise<Buffer> =>
  zipFrom([{ name: 'dense.md', data: Buffer.alloc(3.5 * MB, 'a') }]);

/**
 * A zip of stored (uncompressed) entries, written directly: yazl takes minutes for tens of
 * thousands of entries (it scans the earlier ones for each new one).
 */
const storedZip = (files: readonly { name: string; data: Buffer }[]): Buffer => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(files.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(files.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

/** 30,000 tiny entries: more than an import reads. */
export const zipBombByCount = async (): Promise<Buffer> =>
  storedZip(
    Array.from({ length: 30_000 }, (_, i) => ({ name: `n/${i}.md`, data: Buffer.from('x') })),
  );

/** A zip of two notes cut short at `keep` of its bytes (its directory lost). */
export const truncatedZip = async (keep = 0.6): Promise<Buffer> => {
  const whole = await zipFrom([
    { name: 'first.md', data: Buffer.from('# First\n\nA whole note') },
    { name: 'second.md', data: Buffer.from(`# Second\n\n${'words '.repeat(2_000)}`) },
  ]);
  return whole.subarray(0, Math.floor(whole.length * keep));
};

/**
 * Markdown shapes a CommonMark parser pays for far more than their size: nesting (each line
 * walks every open container), and runs of openers that never close.
 */
export const costlyMarkdown: Record<string, () => string> = {
  nestedLists: () => `${'- '.repeat(100_000)}x`,
  nestedQuotes: () => '>'.repeat(100_000),
  hashes: () => '#'.repeat(100_000),
  brackets: () => '['.repeat(100_000),
  stars: () => '*'.repeat(200_000),
  unclosedLinks: () => '[a]('.repeat(50_000),
  stairs: () => Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n'),
  everything: () =>
    ['#'.repeat(100_000), '>'.repeat(100_000), '['.repeat(100_000), '*'.repeat(200_000)].join('\n'),
};

/** Front matter whose aliases expand to a billion entries ("billion laughs"). */
export const yamlAliases = (): string => {
  const lines = ['---', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i += 1) {
    const previous = `*${names[i - 1]}`;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(previous).join(',')}]`);
  }
  lines.push('title: Laughs', '---', '', 'The body');
  return lines.join('\n');
};

/** Front matter that names the prototype of every object, as a pollution attempt. */
export const prototypeFrontMatter = (): string =>
  [
    '---',
    'title: Prototype',
    '__proto__:',
    '  polluted: yes',
    'constructor:',
    '  prototype:',
    '    polluted: yes',
    '---',
    '',
    'Body',
  ].join('\n');

/** JSON nested `depth` arrays deep (`[[[...]]]`). */
export const nestedJson = (depth = 15_000): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * A PDF of one page whose content stream (FlateDecode) inflates to `inflatedMb` megabytes of
 * zeros: about 1 KB of PDF per MB inflated.
 */
export const inflatingPdf = async (inflatedMb = 1_500): Promise<Buffer> => {
  const zeros = Buffer.alloc(MB);
  const stream = await deflated(async (push) => {
    for (let i = 0; i < inflatedMb; i += 1) await push(zeros);
  });
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Buffer) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  push('%PDF-1.7\n');
  const object = (body: (string | Buffer)[]) => {
    offsets.push(length);
    push(`${offsets.length} 0 obj\n`);
    for (const part of body) push(part);
    push('\nendobj\n');
  };
  object(['<< /Type /Catalog /Pages 2 0 R >>']);
  object(['<< /Type /Pages /Kids [3 0 R] /Count 1 >>']);
  object(['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>']);
  object([`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream']);
  const xref = length;
  push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
};

/** A note's Markdown whose links would run script where a reader follows them. */
export const scriptLinks = (): string =>
  [
    '[run](javascript:alert(1))',
    '[vb](vbscript:msgbox(1))',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[mixed case]( JaVaScRiPt:alert(2))',
    '[fine](https://example.com/page)',
    '[mail](mailto:someone@example.com)',
  ].join('\n\n');

const pngChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
};

/**
 * A valid PNG of `side` × `side` white RGB pixels (20,000 by default: 400 megapixels, 1.2 GB
 * decoded) in about a megabyte.
 */
export const hugePng = async (side = 20_000): Promise<Buffer> => {
  const row = Buffer.alloc(1 + side * 3, 0xff);
  row[0] = 0;
  const idat = await deflated(async (push) => {
    for (let y = 0; y < side; y += 1) await push(row);
  });
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};
