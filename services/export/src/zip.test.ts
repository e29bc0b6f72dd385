import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readZip } from '@noted/testing';
import { describe, expect, it } from 'vitest';
import { createZipWriter } from './zip.js';

const collect = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

/** The zip on disk, for the readers that are programs. */
const saved = (zip: Buffer) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'noted-zip-')), 'test.zip');
  writeFileSync(file, zip);
  return file;
};

/**
 * What Python's zipfile reads from the zip, after checking every CRC: each entry's name and
 * size, or how many there are.
 */
const pythonZipfile = (file: string, what: 'entries' | 'count' = 'entries') =>
  JSON.parse(
    execFileSync('python3', [
      '-c',
      'import json,sys,zipfile\n' +
        'z=zipfile.ZipFile(sys.argv[1])\n' +
        'assert z.testzip() is None\n' +
        'e=[[i.filename,i.file_size] for i in z.infolist()]\n' +
        `print(json.dumps(${what === 'count' ? 'len(e)' : 'e'}))`,
      file,
    ]).toString(),
  ) as unknown;

const sample = async (options: { zip64?: 'always' } = {}) => {
  const zip = createZipWriter(options);
  const bytes = collect(zip.stream);
  const image = randomBytes(10_000);
  await zip.add('images/a.webp', image, { compress: false });
  await zip.add('导出设计 (2).md', '---\ntitle: 导出\n---\n' + 'text '.repeat(1000), {
    mtime: new Date('2026-03-05T18:00:00Z'),
  });
  await zip.add('manifest.json', '{}');
  await zip.end();
  return { zip: await bytes, image };
};

describe('the streamed zip', () => {
  it('holds each entry as given, UTF-8 names included, text deflated and images stored', async () => {
    const { zip, image } = await sample();
    const entries = await readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual([
      'images/a.webp',
      '导出设计 (2).md',
      'manifest.json',
    ]);
    expect(entries[0]?.bytes.equals(image)).toBe(true);
    expect(entries[0]?.compressionMethod).toBe(0);
    expect(entries[1]?.compressionMethod).toBe(8);
    expect(entries[1]?.bytes.toString()).toContain('title: 导出');
    // A tiny file that deflate would only grow is stored.
    expect(entries[2]?.compressionMethod).toBe(0);
  });

  it("is read whole by Info-ZIP's unzip and Python's zipfile, also in ZIP64 form", async () => {
    for (const form of [{}, { zip64: 'always' as const }]) {
      const { zip } = await sample(form);
      const file = saved(zip);
      expect(execFileSync('unzip', ['-tq', file]).toString()).toMatch(/No errors detected/);
      expect(pythonZipfile(file)).toEqual([
        ['images/a.webp', 10_000],
        ['导出设计 (2).md', Buffer.byteLength('---\ntitle: 导出\n---\n') + 5000],
        ['manifest.json', 2],
      ]);
      expect((await readZip(zip)).map((entry) => entry.name)).toHaveLength(3);
      const listing = execFileSync('zipinfo', [file]).toString();
      expect(listing).toContain('26-Mar-05 18:00');
    }
  });

  it('takes the next entry only as fast as the zip is read', async () => {
    const zip = createZipWriter();
    let first = false;
    const adding = zip.add('first', randomBytes(2_000_000), { compress: false }).then(() => {
      first = true;
    });
    await sleep(100);
    // Nothing reads: the entry is held, and the caller waits before making the next.
    expect(first).toBe(false);
    const bytes = collect(zip.stream);
    await adding;
    await zip.add('second', 'x');
    await zip.end();
    expect((await readZip(await bytes)).map((entry) => entry.name)).toEqual(['first', 'second']);
  });

  it('writes ZIP64 end records past 65,535 entries, and every reader lists them all', async () => {
    const zip = createZipWriter();
    const bytes = collect(zip.stream);
    for (let n = 0; n < 70_000; n += 1) await zip.add(`n${n}.md`, 'x', { compress: false });
    await zip.end();
    const file = saved(await bytes);
    expect(
      execFileSync('unzip', ['-tq', file], { maxBuffer: 64 * 1024 * 1024 }).toString(),
    ).toMatch(/No errors detected/);
    expect(pythonZipfile(file, 'count')).toBe(70_000);
  }, 60_000);

  it('stops broken when aborted: the stream errors and what came out is no zip', async () => {
    const zip = createZipWriter();
    const parts: Buffer[] = [];
    zip.stream.on('data', (part: Buffer) => parts.push(part));
    const ended = new Promise<Error | undefined>((resolve) => {
      zip.stream.once('error', resolve);
      zip.stream.once('end', () => resolve(undefined));
    });
    await zip.add('note.md', 'text');
    zip.abort(new Error('the notes service went away'));
    await expect(zip.add('later.md', 'text')).rejects.toThrow('went away');
    expect((await ended)?.message).toBe('the notes service went away');
    await expect(readZip(Buffer.concat(parts))).rejects.toThrow();
  });
});
