import sharp from 'sharp';
import { AppError, NOTE_IMAGE_MAX_PIXELS, NOTE_IMAGE_MAX_SIDE } from '@noted/api';
import { sniffImage, type ImageFormat } from './sniff.js';

// Decoded images are used once; libvips' operation cache would only hold memory.
sharp.cache(false);

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
}

const notAnImage = () => new AppError('NOT_AN_IMAGE', 'The file given is not an image');

/** What libvips calls each sniffed format (AVIF is read by its HEIF loader). */
const loaderOf: Record<ImageFormat, string> = {
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
};

/**
 * Sniffs the bytes, checks the declared pixel count from the header before any decoding, then
 * decodes, applies the EXIF orientation, bounds the longer side and re-encodes as WebP without
 * metadata (no GPS or camera data leaves with the image).
 */
export const processImage = async (bytes: Buffer): Promise<ProcessedImage> => {
  const format = sniffImage(bytes);
  if (!format) throw notAnImage();

  // Reading the header decodes no pixels, so the bomb is refused here with its real size.
  const header = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw notAnImage();
    });
  if (header.format !== loaderOf[format] || !header.width || !header.height) throw notAnImage();
  const pixels = header.width * header.height;
  if (pixels > NOTE_IMAGE_MAX_PIXELS) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The image is too large (${pixels.toLocaleString('en-US')} pixels; at most ` +
        `${NOTE_IMAGE_MAX_PIXELS.toLocaleString('en-US')})`,
    );
  }

  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: NOTE_IMAGE_MAX_PIXELS,
      failOn: 'error',
    })
      .rotate()
      .resize({
        width: NOTE_IMAGE_MAX_SIDE,
        height: NOTE_IMAGE_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw notAnImage();
  }
};
