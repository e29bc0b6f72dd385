import { AppError } from '@noted/api';
import { EXIT_TOO_MUCH_MEMORY, type PdfTask, type PdfTaskResult } from './pdf.worker.js';
import { createBoundedPool } from './threads.js';

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
  const pool = createBoundedPool<PdfTask, PdfTaskResult>({
    moduleUrl: import.meta.url,
    worker: 'pdf.worker',
    name: 'extractPdf',
    threads: options.workers,
    timeoutMs: limits.timeoutMs,
    memoryMb: limits.memoryMb,
    closedError,
    // The time limit, the heap limit, the buffer guard or a crash in pdf.js: all the document's
    // doing.
    failed: (cause) => Object.assign(tooComplex(), { cause }),
    describe: (error) =>
      String(error instanceof Error ? error.message : error).includes(
        `code: ${EXIT_TOO_MUCH_MEMORY}`,
      )
        ? 'buffer memory limit'
        : undefined,
  });

  return {
    async read(data, signal) {
      if (data.byteLength > limits.maxBytes) {
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          `The PDF is larger than ${megabytes(limits.maxBytes)} MB`,
        );
      }
      if (!hasPdfHeader(data)) throw notAPdf();
      // A copy of exactly the bytes given, moved to the thread rather than cloned again.
      const copy = new Uint8Array(data);
      const task = {
        data: copy,
        maxPages: limits.maxPages,
        maxChars: limits.maxChars,
        memoryMb: limits.memoryMb,
      };
      const result = await pool.run(task, {
        ...(signal ? { signal } : {}),
        transferList: [copy.buffer],
      });
      if (result.kind === 'not-a-pdf') throw notAPdf();
      if (result.kind === 'encrypted') {
        throw new AppError('NOT_A_PDF', 'The PDF is password-protected: remove the password');
      }
      const { kind: _kind, ...text } = result;
      return text;
    },
    close: () => pool.close(),
  };
};
