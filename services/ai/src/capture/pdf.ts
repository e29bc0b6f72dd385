import { AppError } from '@noted/api';
import { createSandbox, SandboxError, taskModule } from '@noted/sandbox';
import type { PdfTask, PdfTaskResult } from './pdf.task.js';

export interface PdfLimits {
  maxBytes: number;
  maxPages: number;
  /** Characters of text kept, all pages together. */
  maxChars: number;
  /** Per document, from the moment its process begins it. */
  timeoutMs: number;
  /** Its process's resident memory, everything counted (the streams pdf.js inflates too). */
  memoryMb: number;
}

export const PDF_LIMITS: PdfLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxPages: 300,
  maxChars: 1_000_000,
  timeoutMs: 60_000,
  memoryMb: 320,
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
  /** Processes reading at once. */
  workers: number;
  limits?: Partial<PdfLimits>;
}

/** The PDF header may follow some junk, as long as it is within the first kilobyte. */
const HEADER_WINDOW = 1024;

const notAPdf = () => new AppError('NOT_A_PDF', 'The file given is not a PDF');
const tooComplex = () => new AppError('VALIDATION_FAILED', 'The PDF is too complex to read');
const PDF_TASK = taskModule(import.meta.url, 'pdf.task');

const megabytes = (bytes: number) =>
  Number((bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0));

const hasPdfHeader = (data: Uint8Array): boolean =>
  Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, HEADER_WINDOW)).includes(
    '%PDF-',
  );

/**
 * Reads the text of PDFs in a sandbox of `workers` processes, started with the first read. Each
 * document gets `limits.timeoutMs` and `limits.memoryMb`; past either its process is killed
 * (the next read gets a fresh one) and the read fails with VALIDATION_FAILED, so a PDF bomb
 * costs a process, not the service. A document without any text reads as empty pages: the
 * caller decides.
 */
export const createPdfReader = (options: PdfReaderOptions): PdfReader => {
  const limits: PdfLimits = { ...PDF_LIMITS, ...options.limits };
  const sandbox = createSandbox({
    name: 'ai-pdf',
    processes: options.workers,
    memoryMb: limits.memoryMb,
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
      let result: PdfTaskResult;
      try {
        result = await sandbox.run<PdfTaskResult, PdfTask>({
          module: PDF_TASK,
          fn: 'extractPdf',
          input: { data, maxPages: limits.maxPages, maxChars: limits.maxChars },
          label: 'pdf_text',
          timeoutMs: limits.timeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        // The time limit, the memory cap or a crash in pdf.js: all the document's doing.
        if (error instanceof SandboxError && error.reason !== 'closed') {
          throw Object.assign(tooComplex(), { cause: error.reason });
        }
        throw error;
      }
      if (result.kind === 'not-a-pdf') throw notAPdf();
      if (result.kind === 'encrypted') {
        throw new AppError('NOT_A_PDF', 'The PDF is password-protected: remove the password');
      }
      const { kind: _kind, ...text } = result;
      return text;
    },
    close: () => sandbox.close(),
  };
};
