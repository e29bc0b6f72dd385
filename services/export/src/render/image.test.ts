import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExportImage } from '../model.js';
import { renderNoteCard } from './image.js';
import { longBody, sampleImages, sampleNote } from './test/fixtures.js';

const shortNote = sampleNote('Buy milk 买牛奶\n\n- [ ] milk\n- [x] eggs', 'Shopping');

/** Mean brightness (0–255) of a region of the PNG. */
const brightness = async (png: Buffer, region?: sharp.Region): Promise<number> => {
  const part = region ? await sharp(png).extract(region).png().toBuffer() : png;
  const { channels } = await sharp(part).greyscale().stats();
  return channels[0]?.mean ?? 0;
};

/** Pixels in a region that are the accent green (text of "Continues in Noted"). */
const greenPixels = async (png: Buffer, region: sharp.Region): Promise<number> => {
  const { data, info } = await sharp(png)
    .extract(region)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
    if (g > r + 40 && g > b + 20) count++;
  }
  return count;
};

let images: ExportImage[];
beforeAll(async () => {
  images = await sampleImages();
});

describe('renderNoteCard', () => {
  it('draws a short note as a PNG 1080 px wide, as tall as it needs', async () => {
    const png = await renderNoteCard(shortNote, [], { theme: 'light' });
    const metadata = await sharp(png).metadata();
    expect(metadata.format).toBe('png');
    expect(metadata.width).toBe(1080);
    expect(metadata.height).toBeGreaterThanOrEqual(540);
    expect(metadata.height).toBeLessThan(1000);
  });

  it('cuts a long note at 4:5 with a fade and "Continues in Noted" in the note\'s language', async () => {
    const png = await renderNoteCard(sampleNote(longBody()), images, { theme: 'light' });
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([1080, 1350]);
    // The label sits in the band at the bottom of the card, centred.
    const band = { left: 300, top: 1350 - 44 - 84, width: 480, height: 84 };
    expect(await greenPixels(png, band)).toBeGreaterThan(200);

    const short = await renderNoteCard(shortNote, [], { theme: 'light' });
    const { height: shortHeight = 0 } = await sharp(short).metadata();
    expect(await greenPixels(short, { ...band, top: shortHeight - 44 - 84 })).toBe(0);

    const chinese = sampleNote(
      `${'今天我们讨论了笔记导出的设计。'.repeat(60)}\n\n`.repeat(6),
      '长笔记',
    );
    const zh = await renderNoteCard(chinese, [], { theme: 'light' });
    const en = await renderNoteCard(sampleNote('Long. '.repeat(2000), 'Long'), [], {
      theme: 'light',
    });
    // "在 Noted 中继续阅读" is a different line from "Continues in Noted": the band differs.
    const bandOf = (png: Buffer) => sharp(png).extract(band).raw().toBuffer();
    expect((await bandOf(zh)).equals(await bandOf(en))).toBe(false);
  });

  it('draws light and dark from the same layout', async () => {
    const light = await renderNoteCard(sampleNote(), images, { theme: 'light' });
    const dark = await renderNoteCard(sampleNote(), images, { theme: 'dark' });
    const [lightMeta, darkMeta] = await Promise.all([
      sharp(light).metadata(),
      sharp(dark).metadata(),
    ]);
    expect([darkMeta.width, darkMeta.height]).toEqual([lightMeta.width, lightMeta.height]);
    expect(await brightness(light)).toBeGreaterThan(180);
    expect(await brightness(dark)).toBeLessThan(90);
    // The title's corner: dark text on light, light text on dark.
    const title = { left: 110, top: 200, width: 500, height: 90 };
    expect(await brightness(light, title)).toBeLessThan(
      await brightness(light, { ...title, top: 1200, height: 40 }),
    );
    expect(await brightness(dark, title)).toBeGreaterThan(
      await brightness(dark, { ...title, top: 1200, height: 40 }),
    );
  });

  it('takes the width asked for and keeps the 4:5 cap', async () => {
    const png = await renderNoteCard(sampleNote(longBody()), images, {
      theme: 'dark',
      width: 1200,
    });
    const { width, height } = await sharp(png).metadata();
    expect([width, height]).toEqual([1200, 1500]);
  });

  it('shows the first image of the note under the title', async () => {
    const withImage = await renderNoteCard(sampleNote(), images, { theme: 'light' });
    const without = await renderNoteCard(sampleNote(), [], { theme: 'light' });
    // The wide photo is green and fills the card's width below the title.
    const area = { left: 200, top: 500, width: 680, height: 200 };
    expect(await greenPixels(withImage, area)).toBeGreaterThan(50_000);
    expect(await greenPixels(without, area)).toBeLessThan(5000);
  });
});
