import { AppError } from '@noted/api';
import { sniffImage } from '@noted/kit';
import { createSandbox, SandboxError, taskModule, type Sandbox } from '@noted/sandbox';
import type { DecodeTask, DecodedImage } from './process.task.js';

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
}

const DECODE_TASK = taskModule(import.meta.url, 'process.task');
/** One image: the largest allowed takes about a second. */
const DECODE_TIMEOUT_MS = 30_000;
/** An upload waits at most this long for a process, then is refused BUSY (503, Retry-After). */
const DECODE_WAIT_MS = 20_000;

export interface ImageWork {
  /** Processes decoding at once (NOTES_IMAGE_CONCURRENCY); the others queue, boundedly. */
  processes: number;
  /** Each process's resident memory (NOTED_SANDBOX_MEMORY_MB). */
  memoryMb: number;
}

let sandbox: Sandbox | undefined;
let settings: ImageWork = { processes: 1, memoryMb: 320 };

/** How this process decodes images; the sandbox starts with the first image. */
export const configureImageWork = (work: ImageWork) => {
  settings = work;
};

/** Ends the processes decoding images (the service stops). */
export const closeImageWork = async () => {
  const closing = sandbox;
  sandbox = undefined;
  await closing?.close();
};

const notAnImage = () => new AppError('NOT_AN_IMAGE', 'The file given is not an image');

/**
 * Sniffs the bytes here, then decodes them in the image sandbox: the declared pixel count is
 * checked from the header before any decoding, the EXIF orientation applied, the longer side
 * bounded and the image re-encoded as WebP without metadata (no GPS or camera data leaves with
 * the image). Uploads beyond what the processes can take soon are refused at once with BUSY.
 */
export const processImage = async (bytes: Buffer): Promise<ProcessedImage> => {
  const format = sniffImage(bytes);
  if (!format) throw notAnImage();
  sandbox ??= createSandbox({ name: 'notes-images', ...settings });
  try {
    const image = await sandbox.run<DecodedImage, DecodeTask>({
      module: DECODE_TASK,
      fn: 'decodeImage',
      input: { bytes, format },
      label: 'decode',
      timeoutMs: DECODE_TIMEOUT_MS,
      maxWaitMs: DECODE_WAIT_MS,
    });
    const { data } = image;
    return { ...image, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
  } catch (error) {
    // Past its time or memory, or its decoder crashed: the image's doing.
    if (error instanceof SandboxError && error.reason !== 'closed') throw notAnImage();
    throw error;
  }
};
