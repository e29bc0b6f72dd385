import sharp from 'sharp';
import type { ExportImage } from '../model.js';

/** An image ready to embed: upright, no larger than it will be drawn, JPEG or PNG. */
export interface PreparedImage {
  url: string;
  data: Buffer;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
}

/** Formats read from the note's images; SVG is left out (it could reference other files). */
const RASTER = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/**
 * The note's images decoded, turned upright by their EXIF orientation and scaled down to
 * `maxWidth` pixels; one that cannot be read is left out (and drawn as a placeholder).
 */
export const prepareImages = async (
  images: readonly ExportImage[],
  maxWidth: number,
): Promise<Map<string, PreparedImage>> => {
  const prepared = new Map<string, PreparedImage>();
  for (const image of images) {
    if (prepared.has(image.url)) continue;
    try {
      const source = sharp(image.bytes, { failOn: 'none', limitInputPixels: 100_000_000 });
      const metadata = await source.metadata();
      if (!metadata.format || !RASTER.has(metadata.format)) continue;
      const pipeline = source.rotate().resize({ width: maxWidth, withoutEnlargement: true });
      const format = metadata.hasAlpha ? 'png' : 'jpeg';
      const { data, info } = await (
        format === 'png'
          ? pipeline.png({ compressionLevel: 8 })
          : pipeline.jpeg({ quality: 86, mozjpeg: true })
      ).toBuffer({ resolveWithObject: true });
      prepared.set(image.url, {
        url: image.url,
        data,
        format,
        width: info.width,
        height: info.height,
      });
    } catch {
      // Not an image sharp can read: the renderers show the placeholder instead.
    }
  }
  return prepared;
};
