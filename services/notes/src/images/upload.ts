import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError, NOTE_IMAGE_MAX_BYTES } from '@noted/api';

/** One file part `image` of at most 10 MB, held in memory; nothing else in the form. */
const upload = multer({
  storage: multer.memoryStorage(),
  limits: {
    files: 1,
    fileSize: NOTE_IMAGE_MAX_BYTES,
    fields: 0,
    fieldNameSize: 64,
    parts: 1,
    headerPairs: 20,
  },
}).single('image');

const formError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError('PAYLOAD_TOO_LARGE', 'The image is larger than 10 MB');
    }
    if (error.code === 'LIMIT_UNEXPECTED_FILE') {
      return new AppError(
        'BAD_REQUEST',
        `Send the image as the file part image, not ${error.field ?? ''}`,
      );
    }
    return new AppError('BAD_REQUEST', `The form is not accepted: ${error.message}`);
  }
  return new AppError('BAD_REQUEST', 'The multipart body is malformed');
};

/** The bytes of the `image` part of a multipart request. */
export const imageUpload = async (req: Request, res: Response): Promise<Buffer> => {
  if (!req.is('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data');
  }
  await new Promise<void>((resolve, reject) => {
    upload(req, res, (error: unknown) => (error ? reject(formError(error)) : resolve()));
  });
  if (!req.file) throw new AppError('BAD_REQUEST', 'Send the image as the file part image');
  return req.file.buffer;
};
