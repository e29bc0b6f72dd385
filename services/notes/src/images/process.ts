import type sharpModule from 'sharp';
import { AppError, NOTE_IMAGE_MAX_PIXELS, NOTE_IMAGE_MAX_SIDE } from '@noted/api';
import { sniffImage, type ImageFormat } from '@noted/kit';

type Sharp = typeof sharpModule;

/**
 * libvips is loaded with the first image, not at start (about 20 MB that a process which never
 * sees an image does not hold). Decoded images are used once, so no operation cache; one
 * libvips thread per image (the default with glibc's malloc, not with jemalloc or on macOS):
 * the largest image allowed then takes about 55 MB to decode and shrink, not 80.
 */
let loadingSharp: Promise<Sharp> | undefined;
const loadSharp = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));

/** Runs work at most `limit` at a time, the rest in arrival order as slots free up. */
export const workSlots = (limit: number) => {
  let slots = limit;
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    setLimit: (next: number) => {
      slots = Math.max(1, Math.floor(next));
    },
    run: async <T>(work: () => Promise<T>): Promise<T> => {
      if (running >= slots) {
        // The slot is handed over by the work that finishes, so the count stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
};

const imageSlots = workSlots(1);

/** How many images this process decodes at once (NOTES_IMAGE_CONCURRENCY); others queue. */
export const limitImageWork = (concurrency: number) => imageSlots.setLimit(concurrency);

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
  const sharp = await loadSharp();
  return imageSlots.run(() => decode(sharp, bytes, format));
};

const decode = async (
  sharp: Sharp,
  bytes: Buffer,
  format: ImageFormat,
): Promise<ProcessedImage> => {
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
