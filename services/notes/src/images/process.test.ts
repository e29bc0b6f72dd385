import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeImageWork, configureImageWork, processImage } from './process.js';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();

beforeAll(() => configureImageWork({ processes: 1, memoryMb: 320 }));
afterAll(() => closeImageWork());

describe('processImage', () => {
  it('decodes in its sandbox and re-encodes as WebP within the longest side', async () => {
    const image = await processImage(await photo(3000, 1500));
    expect(image).toMatchObject({ width: 1920, height: 960 });
    expect((await sharp(image.data).metadata()).format).toBe('webp');
  });

  it('refuses what is not an image before decoding anything', async () => {
    await expect(processImage(Buffer.from('%PDF-1.7'))).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
    });
  });

  it('refuses an image of too many pixels from its header, without decoding it', async () => {
    // 20,000 × 20,000 of one colour: a few hundred KB that would decode to 1.6 GB.
    const bomb = await sharp({
      create: { width: 20_000, height: 20_000, channels: 3, background: '#ffffff' },
      limitInputPixels: false,
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await expect(processImage(bomb)).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringContaining('400,000,000 pixels'),
    });
  });

  it('refuses at once, with BUSY and a Retry-After, uploads beyond what it can queue', async () => {
    const image = await photo(1200, 900);
    const answers = await Promise.allSettled(
      Array.from({ length: 24 }, () => processImage(Buffer.from(image))),
    );
    const busy = answers.filter(
      (answer) => answer.status === 'rejected' && answer.reason?.code === 'BUSY',
    );
    const done = answers.filter((answer) => answer.status === 'fulfilled');
    // One process and eight waiting: the first nine are decoded, the rest refused at once.
    expect(done).toHaveLength(9);
    expect(busy).toHaveLength(15);
    expect(busy[0]).toMatchObject({
      reason: { status: 503, details: { retryAfterSeconds: expect.any(Number) } },
    });
  });
});
