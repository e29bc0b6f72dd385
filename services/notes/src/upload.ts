import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError } from '@noted/api';

/** One uploaded file, held in memory. */
export interface FilePart {
  data: Buffer;
  /** The name the browser gave it (shown on download; never trusted for the format). */
  fileName: string;
}

/** A size as errors say it: bytes under a megabyte, else whole megabytes. */
export const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * A reader of multipart requests holding exactly one file part `field` of at most `maxBytes`,
 * in memory, and nothing else; `what` names the file in errors ("image", "audio", "PDF").
 */
export const filePart = (options: { field: string; maxBytes: number; what: string }) => {
  const { field, maxBytes, what } = options;
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: {
      files: 1,
      fileSize: maxBytes,
      fields: 0,
      fieldNameSize: 64,
      parts: 1,
      headerPairs: 20,
    },
  }).single(field);

  const formError = (error: unknown): AppError => {
    if (error instanceof AppError) return error;
    if (error instanceof multer.MulterError) {
      if (error.code === 'LIMIT_FILE_SIZE') {
        return new AppError(
          'PAYLOAD_TOO_LARGE',
          `The ${what} is larger than ${sizeText(maxBytes)}`,
        );
      }
      if (error.code === 'LIMIT_UNEXPECTED_FILE') {
        return new AppError(
          'BAD_REQUEST',
          `Send the ${what} as the file part ${field}, not ${error.field ?? ''}`,
        );
      }
      return new AppError('BAD_REQUEST', `The form is not accepted: ${error.message}`);
    }
    return new AppError('BAD_REQUEST', 'The multipart body is malformed');
  };

  return async (req: Request, res: Response): Promise<FilePart> => {
    if (!req.is('multipart/form-data')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the ${what} as multipart/form-data`);
    }
    await new Promise<void>((resolve, reject) => {
      upload(req, res, (error: unknown) => (error ? reject(formError(error)) : resolve()));
    });
    if (!req.file) throw new AppError('BAD_REQUEST', `Send the ${what} as the file part ${field}`);
    return { data: req.file.buffer, fileName: req.file.originalname };
  };
};
