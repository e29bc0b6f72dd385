/**
 * Decoding an uploaded image, as `process.ts` runs it in its sandbox (`@noted/sandbox`): libvips
 * decodes untrusted bytes here, in a process whose time and resident memory are capped, so an
 * image built to cost too much costs this process, never the service, and the memory a decode
 * took goes back to the system with the process.
 */
import type sharpModule from 'sharp';
import { AppError, NOTE_IMAGE_MAX_PIXELS, NOTE_IMAGE_MAX_SIDE } from '@noted/api';
import type { ImageFormat } from '@noted/kit';

type Sharp = typeof sharpModule;

/**
 * Decoded images are used once, so no operation cache; one libvips thread per image (the
 * default with glibc's malloc, not with jemalloc or on macOS): the largest image allowed then
 * takes about 55 MB to decode and shrink, not 80.
 */
let loadingSharp: Promise<Sharp> | undefined;
const loadSharp = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));

export interface DecodeTask {
  bytes: Uint8Array;
  /** What the bytes were sniffed as (`sniffImage`). */
  format: ImageFormat;
}

export interface DecodedImage {
  data: Uint8Array;
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
 * Checks the declared pixel count from the header before any decoding, then decodes, applies the EXIF orientation, bounds the longer side and re-encodes as WebP without
 * metadata (no GPS or camera data leaves with the image).
 */
export const decodeImage = async ({ bytes, format }: DecodeTask): Promise<DecodedImage> => {
  const sharp = await loadSharp();
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
      'UNPROCESSABLE',
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
