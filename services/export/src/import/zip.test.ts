import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimSize, PNG_1X1, renameInZip, zipOf } from './test/zip.js';
import { entryName, readZip, type ImportFile } from './zip.js';

const text = (file: ImportFile | undefined) => {
  if (!file || !('bytes' in file)) throw new Error('not read into memory');
  return Buffer.from(file.bytes).toString('utf8');
};

describe('reading a zip of an import', () => {
  it('keeps Markdown, images and CSV by normalised path and passes over the rest', async () => {
    const zip = await zipOf([
      { name: 'notes/Groceries.md', data: '# Groceries\n\nmilk' },
      { name: 'notes/img/photo.png', data: PNG_1X1, compress: false },
      { name: 'notes/周末计划.md', data: '周末 #生活' },
      { name: 'notes/data.csv', data: 'Name\nA' },
      { name: 'notes/movie.mp4', data: 'not taken' },
      { name: '__MACOSX/notes/._Groceries.md', data: 'resource fork' },
      { name: 'notes/.DS_Store', data: 'finder' },
    ]);
    const content = await readZip(zip);
    expect(content.files.map((file) => file.path)).toEqual([
      'notes/Groceries.md',
      'notes/img/photo.png',
      'notes/周末计划.md',
      'notes/data.csv',
    ]);
    expect(text(content.files[0])).toBe('# Groceries\n\nmilk');
    expect(content.files[1]).toEqual({ path: 'notes/img/photo.png', bytes: PNG_1X1 });
    expect(content.ignored).toEqual([{ path: 'notes/movie.mp4', reason: 'NOT_TAKEN' }]);
  });

  it('reads an archive from a file on disk the same way', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'noted-import-zip-'));
    try {
      const file = path.join(dir, 'upload.zip');
      await writeFile(file, await zipOf([{ name: 'a.md', data: 'A' }]));
      const content = await readZip(file);
      expect(content.files.map((f) => [f.path, text(f)])).toEqual([['a.md', 'A']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('passes over entries whose names climb out of the archive, and reads the others', async () => {
    const zip = renameInZip(
      renameInZip(
        renameInZip(
          await zipOf([
            { name: 'xx/evil.md', data: 'outside' },
            { name: 'xabs.md', data: 'absolute' },
            { name: 'yy_win.md', data: 'windows' },
            { name: 'safe/ok.md', data: 'inside' },
            { name: 'C_drive.md', data: 'drive' },
          ]),
          'xx/evil.md',
          '../evil.md',
        ),
        'xabs.md',
        '/abs.md',
      ),
      'yy_win.md',
      '..\\win.md',
    );
    const content = await readZip(renameInZip(zip, 'C_drive.md', 'C:drive.md'));
    expect(content.files.map((file) => file.path)).toEqual(['safe/ok.md']);
    expect(content.ignored).toEqual([
      { path: '../evil.md', reason: 'UNSAFE_PATH' },
      { path: '/abs.md', reason: 'UNSAFE_PATH' },
      { path: '..\\win.md', reason: 'UNSAFE_PATH' },
      { path: 'C:drive.md', reason: 'UNSAFE_PATH' },
    ]);
  });

  it('passes over, unread, a file said to be larger than such a file may be', async () => {
    const zip = await zipOf([
      { name: 'big.md', data: Buffer.alloc(2 * 1024 * 1024, 0x61) },
      { name: 'small.md', data: 'S' },
    ]);
    const content = await readZip(zip, { maxBytesOf: (p) => (p.endsWith('.md') ? 1024 : 1e9) });
    expect(content.files.map((f) => f.path)).toEqual(['small.md']);
    expect(content.ignored).toEqual([{ path: 'big.md', reason: 'TOO_LARGE' }]);
    // Passed over before inflating: only the small file was taken.
    expect(content.used).toBe(1);
  });

  it('refuses a file that inflates to far more than its compressed size (a zip bomb)', async () => {
    const bomb = await zipOf([{ name: 'bomb.md', data: Buffer.alloc(8 * 1024 * 1024, 0x61) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(readZip(bomb)).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
      status: 413,
      details: { reason: 'ZIP_INFLATE_RATIO', limit: 200 },
    });
  });

  it('refuses an archive whose texts together pass what is held in memory', async () => {
    const zip = await zipOf(
      Array.from({ length: 4 }, (_, i) => ({
        name: `${i}.md`,
        data: Buffer.from(Array.from({ length: 40_000 }, (_, j) => (i * j) % 251)),
        compress: false,
      })),
    );
    await expect(readZip(zip, { limits: { maxMemoryBytes: 100_000 } })).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
      details: { reason: 'ZIP_TEXT_TOO_LARGE', limit: 100_000 },
    });
  });

  it('writes the files it is told to store to disk, and keeps the others in memory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'noted-import-store-'));
    try {
      const zip = await zipOf([
        { name: 'a.md', data: 'A' },
        { name: 'img/photo.png', data: PNG_1X1 },
      ]);
      const content = await readZip(zip, { store: { dir, when: (p) => p.endsWith('.png') } });
      expect(text(content.files[0])).toBe('A');
      const image = content.files[1]!;
      expect(image).toMatchObject({ path: 'img/photo.png', size: PNG_1X1.length });
      expect('file' in image && (await readFile(image.file)).equals(PNG_1X1)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an archive cut short, or whose file fails its checksum', async () => {
    const zip = await zipOf([
      { name: 'a.md', data: '# A\n\nhello' },
      { name: 'b.md', data: 'x'.repeat(5000) },
    ]);
    for (const cut of [zip.length - 1, zip.length - 30, Math.floor(zip.length / 2), 60]) {
      await expect(readZip(zip.subarray(0, cut))).rejects.toMatchObject({ code: 'ZIP_INVALID' });
    }
    const stored = await zipOf([{ name: 'a.md', data: 'hello world', compress: false }]);
    const damaged = Buffer.from(stored);
    damaged[stored.indexOf('hello world')] = 0x48;
    await expect(readZip(damaged)).rejects.toMatchObject({
      code: 'ZIP_INVALID',
      message: 'The zip archive is damaged: a.md fails its checksum',
    });
  });

  it('refuses many small files that inflate past the limit for the whole archive', async () => {
    const zip = await zipOf(
      Array.from({ length: 8 }, (_, i) => ({
        name: `part-${i}.md`,
        data: Buffer.alloc(512 * 1024, 0x62),
      })),
    );
    await expect(
      readZip(zip, { limits: { maxFileBytes: 1024 * 1024, maxTotalBytes: 2 * 1024 * 1024 } }),
    ).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
      details: { reason: 'ZIP_TOO_LARGE', limit: 2 * 1024 * 1024 },
    });
  });

  it('refuses an archive of too many entries before reading any', async () => {
    const zip = await zipOf(Array.from({ length: 30 }, (_, i) => ({ name: `${i}.md`, data: 'x' })));
    await expect(readZip(zip, { limits: { maxEntries: 20 } })).rejects.toMatchObject({
      code: 'IMPORT_TOO_LARGE',
      details: { reason: 'ZIP_TOO_MANY_ENTRIES', limit: 20 },
    });
  });

  it('refuses a file whose header claims less than it inflates to', async () => {
    const zip = claimSize(
      await zipOf([{ name: 'liar.md', data: Buffer.alloc(2 * 1024 * 1024, 0x63) }]),
      10,
    );
    await expect(readZip(zip, { limits: { maxFileBytes: 1024 * 1024 } })).rejects.toMatchObject({
      code: 'ZIP_INVALID',
      details: { reason: 'ZIP_INVALID' },
    });
  });

  it('refuses what is not a zip with a stable code', async () => {
    await expect(readZip(Buffer.from('# just markdown'))).rejects.toMatchObject({
      code: 'ZIP_INVALID',
      details: { reason: 'ZIP_INVALID' },
    });
  });
});

describe('names of entries', () => {
  it('reads UTF-8 names flagged or not, and old names in code page 437', () => {
    expect(entryName(Buffer.from('笔记/a.md'), 0x800, [])).toBe('笔记/a.md');
    expect(entryName(Buffer.from('笔记/a.md'), 0, [])).toBe('笔记/a.md');
    expect(entryName(Buffer.from([0x84, 0x2e, 0x6d, 0x64]), 0, [])).toBe('ä.md');
  });
});
