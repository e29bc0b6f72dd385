import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { readZip } from '@noted/testing';
import { describe, expect, it } from 'vitest';
import { createZipWriter } from './zip.js';

const collect = async (stream: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

describe('the streamed zip', () => {
  it('holds each entry as given, UTF-8 names included, text deflated and images stored', async () => {
    const zip = createZipWriter();
    const bytes = collect(zip.stream);
    const image = randomBytes(10_000);
    await zip.add('images/a.webp', image, { compress: false });
    await zip.add('导出设计 (2).md', '---\ntitle: 导出\n---\n' + 'text '.repeat(1000));
    await zip.add('manifest.json', '{}');
    zip.end();
    const entries = await readZip(await bytes);
    expect(entries.map((entry) => entry.name)).toEqual([
      'images/a.webp',
      '导出设计 (2).md',
      'manifest.json',
    ]);
    expect(entries[0]?.bytes.equals(image)).toBe(true);
    expect(entries[0]?.compressionMethod).toBe(0);
    expect(entries[1]?.compressionMethod).toBe(8);
    expect(entries[1]?.bytes.toString()).toContain('title: 导出');
  });

  it('takes the next entry only as fast as the zip is read', async () => {
    const zip = createZipWriter();
    await zip.add('first', randomBytes(2_000_000), { compress: false });
    let second = false;
    const adding = zip.add('second', 'x').then(() => {
      second = true;
    });
    await sleep(100);
    // Nothing reads: the first entry is still on its way out, so the second waits.
    expect(second).toBe(false);
    const bytes = collect(zip.stream);
    await adding;
    zip.end();
    expect((await readZip(await bytes)).map((entry) => entry.name)).toEqual(['first', 'second']);
  });

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
