import { Piscina } from 'piscina';
import { AppError } from '@noted/api';
import { createSlots } from './slots.js';
import { EXIT_TOO_MUCH_MEMORY, type PdfTask, type PdfTaskResult } from './pdf.worker.js';
import { workerThread } from './threads.js';

export interface PdfLimits {
  maxBytes: number;
  maxPages: number;
  /** Characters of text kept, all pages together. */
  maxChars: number;
  /** Per document, from the moment a worker takes it. */
  timeoutMs: number;
  /** A worker's JS heap, and separately the buffers pdf.js decodes streams into. */
  memoryMb: number;
}

export const PDF_LIMITS: PdfLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxPages: 300,
  maxChars: 1_000_000,
  timeoutMs: 60_000,
  memoryMb: 256,
};

export interface PdfText {
  /** One string per page read, '' for a page without text (a scan). */
  pages: string[];
  /** Pages in the document, read or not. */
  pageCount: number;
  /** Pages or characters past the limits were left out. */
  truncated: boolean;
  title?: string;
}

export interface PdfReader {
  read(data: Uint8Array, signal?: AbortSignal): Promise<PdfText>;
  close(): Promise<void>;
}

export interface PdfReaderOptions {
  workers: number;
  limits?: Partial<PdfLimits>;
}

/** Idle workers end after this, giving their memory back: PDFs come now and then. */
const IDLE_TIMEOUT_MS = 60_000;
/** The PDF header may follow some junk, as long as it is within the first kilobyte. */
const HEADER_WINDOW = 1024;

const notAPdf = () => new AppError('NOT_A_PDF', 'The file given is not a PDF');
const tooComplex = () => new AppError('VALIDATION_FAILED', 'The PDF is too complex to read');
const closedError = () => new Error('The PDF reader is closed');

const megabytes = (bytes: number) =>
  Number((bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0));

const hasPdfHeader = (data: Uint8Array): boolean =>
  Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, HEADER_WINDOW)).includes(
    '%PDF-',
  );

/**
 * Reads the text of PDFs in a pool of `workers` worker threads, started with the first read.
 * Each document gets `limits.timeoutMs` and `limits.memoryMb`; past either its thread is ended
 * (and replaced) and the read fails with VALIDATION_FAILED, so a PDF bomb costs a thread, not
 * the service. A document without any text reads as empty pages: the caller decides.
 */
export const createPdfReader = (options: PdfReaderOptions): PdfReader => {
  const limits: PdfLimits = { ...PDF_LIMITS, ...options.limits };
  const size = Math.max(1, Math.floor(options.workers));
  const slots = createSlots(size);
  let pool: Piscina<PdfTask, PdfTaskResult> | undefined;
  let closed = false;

  const startPool = () => {
    const started = new Piscina<PdfTask, PdfTaskResult>({
      ...workerThread(import.meta.url, 'pdf.worker'),
      name: 'extractPdf',
      minThreads: 0,
      maxThreads: size,
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
    // A thread that dies with no task (rare) is reported here; unheard, it would end the process.
    started.on('error', () => {});
    return started;
  };

  const run = async (data: Uint8Array, signal?: AbortSignal): Promise<PdfTaskResult> => {
    pool ??= startPool();
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    // A copy of exactly the bytes given, moved to the thread rather than cloned again.
    const copy = new Uint8Array(data);
    try {
      return await pool.run(
        {
          data: copy,
          maxPages: limits.maxPages,
          maxChars: limits.maxChars,
          memoryMb: limits.memoryMb,
        },
        {
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          transferList: [copy.buffer],
        },
      );
    } catch (error) {
      if (closed) throw closedError();
      if (signal?.aborted) throw signal.reason;
      // The time limit, the heap limit (ERR_WORKER_OUT_OF_MEMORY), the buffer guard
      // (EXIT_TOO_MUCH_MEMORY) or a crash in pdf.js: all the document's doing.
      throw Object.assign(tooComplex(), {
        cause: timeout.aborted ? 'timeout' : describeFailure(error),
      });
    }
  };

  return {
    async read(data, signal) {
      if (closed) throw closedError();
      if (data.byteLength > limits.maxBytes) {
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          `The PDF is larger than ${megabytes(limits.maxBytes)} MB`,
        );
      }
      if (!hasPdfHeader(data)) throw notAPdf();
      const release = await slots.acquire(signal);
      try {
        if (closed) throw closedError();
        const result = await run(data, signal);
        if (result.kind === 'not-a-pdf') throw notAPdf();
        if (result.kind === 'encrypted') {
          throw new AppError('NOT_A_PDF', 'The PDF is password-protected: remove the password');
        }
        const { kind: _kind, ...text } = result;
        return text;
      } finally {
        release();
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      slots.close(closedError());
      await pool?.destroy();
    },
  };
};

const describeFailure = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes(`code: ${EXIT_TOO_MUCH_MEMORY}`)) return 'buffer memory limit';
  if ((error as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY') return 'heap limit';
  return message;
};
