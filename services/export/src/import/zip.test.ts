import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimSize, PNG_1X1, renameInZip, zipOf } from './test/zip.js';
import { entryName, readZip } from './zip.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

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
    expect(text(content.files[0]!.bytes)).toBe('# Groceries\n\nmilk');
    expect(Buffer.from(content.files[1]!.bytes).equals(PNG_1X1)).toBe(true);
    expect(content.ignored).toEqual([{ path: 'notes/movie.mp4', reason: 'NOT_TAKEN' }]);
  });

  it('reads an archive from a file on disk the same way', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'noted-import-zip-'));
    try {
      const file = path.join(dir, 'upload.zip');
      await writeFile(file, await zipOf([{ name: 'a.md', data: 'A' }]));
      const content = await readZip(file);
      expect(content.files.map((f) => [f.path, text(f.bytes)])).toEqual([['a.md', 'A']]);
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

  it('refuses a file that inflates past the limit for one file (a zip bomb)', async () => {
    const bomb = await zipOf([{ name: 'bomb.md', data: Buffer.alloc(4 * 1024 * 1024, 0x61) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(readZip(bomb, { limits: { maxFileBytes: 1024 * 1024 } })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { reason: 'ZIP_ENTRY_TOO_LARGE', limit: 1024 * 1024 },
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
      code: 'PAYLOAD_TOO_LARGE',
      details: { reason: 'ZIP_TOO_LARGE', limit: 2 * 1024 * 1024 },
    });
  });

  it('refuses an archive of too many entries before reading any', async () => {
    const zip = await zipOf(Array.from({ length: 30 }, (_, i) => ({ name: `${i}.md`, data: 'x' })));
    await expect(readZip(zip, { limits: { maxEntries: 20 } })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
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
