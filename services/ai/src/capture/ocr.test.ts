import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanOcrText, createOcr, type Ocr } from './ocr.js';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Black text on white, one SVG <text> per line, rendered by libvips like a screenshot. */
const renderText = (
  lines: string[],
  {
    font = 'DejaVu Sans',
    size = 32,
    width = 1000,
  }: { font?: string; size?: number; width?: number } = {},
): Promise<Buffer> => {
  const lineHeight = Math.round(size * 1.6);
  const height = lineHeight * lines.length + size;
  const texts = lines
    .map(
      (line, i) =>
        `<text x="24" y="${lineHeight * (i + 1)}" font-family="${font}" font-size="${size}" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${texts}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
};

// Debian's fonts-noto-cjk, which librsvg needs to draw the Chinese test image.
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

const CJK_SPACE_CJK = /\p{Script=Han}\s+\p{Script=Han}/u;

describe('cleanOcrText', () => {
  it('joins CJK characters, keeps spaces between Latin words and around Latin in CJK', () => {
    expect(cleanOcrText('今天 下 午 三 点 开会 讨论 预算 。\n')).toBe('今天下午三点开会讨论预算。');
    expect(cleanOcrText('会议 在 Room 301 举行 ， 请 准时')).toBe('会议在 Room 301 举行，请准时');
    expect(cleanOcrText('カタ カナ と ひら がな')).toBe('カタカナとひらがな');
    expect(cleanOcrText('  The  quick   brown fox  ')).toBe('The quick brown fox');
  });

  it('keeps the spaces between Korean words', () => {
    expect(cleanOcrText('오늘 회의가 있습니다')).toBe('오늘 회의가 있습니다');
  });

  it('drops noise lines and collapses blank lines', () => {
    expect(cleanOcrText('Title\n|\n—\n\n\n\n\nBody line\n . \nl\n序\n')).toBe(
      'Title\n\nBody line\n序',
    );
  });
});

describe('createOcr', () => {
  let ocr: Ocr;
  beforeAll(() => {
    ocr = createOcr({ workers: 2 });
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reads English text', async () => {
    const image = await renderText(['The quick brown fox jumps over the lazy dog']);
    const result = await ocr.read(image);
    expect(result.text).toContain('quick brown fox');
    expect(result.text).toMatch(/jumps over the lazy dog/);
    expect(result.confidence).toBeGreaterThan(70);
  });

  it.skipIf(!existsSync(CJK_FONT))(
    'reads Simplified Chinese without spaces between the characters',
    async () => {
      const image = await renderText(['今天下午三点开会讨论预算'], {
        font: 'Noto Sans CJK SC',
        size: 36,
        width: 600,
      });
      const { text } = await ocr.read(image);
      expect(text).toContain('开会讨论');
      expect(text).toContain('预算');
      expect(text).not.toMatch(CJK_SPACE_CJK);
    },
  );

  it('reads a JPEG with several lines', async () => {
    const png = await renderText(['Shopping list', 'Milk and eggs', 'Call the plumber at noon']);
    const jpeg = await sharp(png).jpeg({ quality: 80 }).toBuffer();
    const { text } = await ocr.read(jpeg);
    expect(text.split('\n')).toEqual(
      expect.arrayContaining(['Shopping list', 'Milk and eggs', 'Call the plumber at noon']),
    );
  });

  it('finds no text in a blank image', async () => {
    const blank = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    expect(await ocr.read(blank)).toMatchObject({ text: '' });
  });

  it('refuses bytes that are not an image', async () => {
    await expect(ocr.read(new TextEncoder().encode('%PDF-1.7 not an image'))).rejects.toMatchObject(
      { code: 'NOT_AN_IMAGE' },
    );
  });

  it('runs two reads at once in a sandbox of two processes', async () => {
    const lines = Array.from(
      { length: 24 },
      (_, i) => `Line ${i + 1}: the committee reviewed the budget and the schedule again`,
    );
    const long = await renderText(lines, { size: 28, width: 1400 });
    const short = await renderText(['Short note']);
    // Both processes started and their Tesseract loaded first: the race is the reading alone.
    await Promise.all([ocr.read(short), ocr.read(short)]);
    const finished: string[] = [];
    const reads = [
      ocr.read(long).then(() => finished.push('long')),
      ocr.read(short).then(() => finished.push('short')),
    ];
    await Promise.all(reads);
    // One process would take them in order; two finish the short one while the long one runs.
    expect(finished).toEqual(['short', 'long']);
  });

  it('ends its processes after idling, and starts them again for the next read', async () => {
    const idling = createOcr({ workers: 1, languages: ['eng'], idleMs: 50 });
    try {
      const image = await renderText(['Idle workers are ended']);
      expect((await idling.read(image)).text).toContain('Idle workers');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await idling.read(image)).text).toContain('Idle workers');
    } finally {
      await idling.close();
    }
  });

  it('refuses reads once closed', async () => {
    const closing = createOcr({ workers: 1, languages: ['eng'] });
    const image = await renderText(['Closed for the day']);
    expect((await closing.read(image)).text).toContain('Closed for the day');
    await closing.close();
    await expect(closing.read(image)).rejects.toThrow(/closed/);
  });

  it('stops waiting when the read is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    const image = await renderText(['Never read']);
    await expect(ocr.read(image, controller.signal)).rejects.toThrow('gone');
  });
});
