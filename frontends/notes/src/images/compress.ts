import { log } from '../log';
import { COMPRESSION_OPTIONS, type CompressionReply } from './compressOptions';

/** Makes an image file smaller; may throw. Injectable so tests (no canvas) can pass a fake. */
export type Compressor = (file: File) => Promise<Blob>;

/** The server's limit (NOTE_IMAGE_MAX_BYTES); checked here so a too large file is not sent. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** A worker that has not answered by then is given up on, and the page compresses instead. */
const WORKER_TIMEOUT_MS = 20_000;

const compressOnMainThread: Compressor = async (file) => {
  // Loaded on the first upload, not with the notes module.
  const { default: imageCompression } = await import('browser-image-compression');
  return imageCompression(file, { ...COMPRESSION_OPTIONS, useWebWorker: false });
};

const compressInWorker: Compressor = (file) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./compress.worker.ts', import.meta.url), {
      name: 'image-compression',
    });
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error('The compression worker did not answer'))),
      WORKER_TIMEOUT_MS,
    );
    worker.addEventListener('message', (event: MessageEvent<CompressionReply>) => {
      const reply = event.data;
      finish(() => (reply.ok ? resolve(reply.blob) : reject(new Error(reply.message))));
    });
    worker.addEventListener('error', (event) => {
      finish(() => reject(new Error(event.message || 'The compression worker failed')));
    });
    worker.postMessage(file);
  });

/** browser-image-compression, in a worker where the browser can draw off the main thread. */
export const compressImage: Compressor = async (file) => {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') {
    return compressOnMainThread(file);
  }
  try {
    return await compressInWorker(file);
  } catch (error) {
    // Safari, for one, cannot decode images inside a worker.
    log.warn('Compressing an image in a worker failed; trying on the page.', error);
    return compressOnMainThread(file);
  }
};

/**
 * The blob to upload for a file: a compressed copy when that is smaller, else the file itself.
 * GIFs are sent as they are (compressing them would keep only the first frame).
 */
export const prepareUpload = async (
  file: File,
  compress: Compressor = compressImage,
): Promise<Blob> => {
  if (file.type === 'image/gif' || !file.type.startsWith('image/')) return file;
  try {
    const compressed = await compress(file);
    return compressed.size < file.size ? compressed : file;
  } catch (error) {
    log.warn('Compressing an image failed; the original is sent.', error);
    return file;
  }
};
