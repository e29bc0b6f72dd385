import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { NOTE_IMAGE_MAX_BYTES, NOTE_IMAGE_MAX_PIXELS } from '@noted/api';

/**
 * The largest upload allowed: NOTE_IMAGE_MAX_PIXELS (8000 x 5000) of a gradient with grain on
 * as many pixels as fit in NOTE_IMAGE_MAX_BYTES as PNG (grain on every pixel would take 50 MB
 * or more; a plain gradient is 2 MB).
 */
export const largestImage = async (): Promise<Buffer> => {
  const width = 8000;
  const height = NOTE_IMAGE_MAX_PIXELS / width;
  const pixels = Buffer.alloc(width * height * 3);
  const noise = randomBytes(width * height * 2);
  for (let oneIn = 24; oneIn <= 64; oneIn += 4) {
    for (let i = 0; i < width * height; i += 1) {
      const x = i % width;
      const y = Math.floor(i / width);
      const grain = (noise[2 * i] ?? 0) < 256 / oneIn ? (noise[2 * i + 1] ?? 0) % 32 : 0;
      pixels[i * 3] = ((x * 255) / width + grain) & 255;
      pixels[i * 3 + 1] = ((y * 255) / height + grain) & 255;
      pixels[i * 3 + 2] = (((x + y) * 127) / (width + height) + 64 + grain) & 255;
    }
    const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    if (png.length <= NOTE_IMAGE_MAX_BYTES) return png;
  }
  throw new Error('no grainy PNG of the largest size fits the upload limit');
};
