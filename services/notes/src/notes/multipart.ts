import type { Request, Response } from 'express';
import multer from 'multer';
import {
  AppError,
  NOTE_FILE_MAX_BYTES,
  NoteUpdate,
  NoteUpdateFormFields,
  type Parsed,
} from '@noted/api';
import { assertNoNul } from '@noted/kit';

const NOTE_FILE_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

/** Bounded in memory: one file of at most 1 MB, a few small text fields. */
const upload = multer({
  storage: multer.memoryStorage(),
  limits: {
    files: 1,
    fileSize: NOTE_FILE_MAX_BYTES,
    fields: 8,
    fieldSize: 64 * 1024,
    fieldNameSize: 64,
    parts: 9,
    headerPairs: 20,
  },
}).single('note');

const formError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError('PAYLOAD_TOO_LARGE', 'The note file is larger than 1 MB');
    }
    if (error.code === 'LIMIT_FIELD_VALUE') {
      return new AppError('PAYLOAD_TOO_LARGE', `The field ${error.field ?? ''} is too long`);
    }
    if (error.code === 'LIMIT_UNEXPECTED_FILE') {
      return new AppError('BAD_REQUEST', `Only the note can be a file, not ${error.field ?? ''}`);
    }
    return new AppError('BAD_REQUEST', `The form is not accepted: ${error.message}`);
  }
  return new AppError('BAD_REQUEST', 'The multipart body is malformed');
};

const parseForm = (req: Request, res: Response) =>
  new Promise<void>((resolve, reject) => {
    upload(req, res, (error: unknown) => (error ? reject(formError(error)) : resolve()));
  });

const noteText = (file: Express.Multer.File): string => {
  const [type = '', ...params] = file.mimetype.toLowerCase().split(';');
  const charset = params.map((p) => p.trim()).find((p) => p.startsWith('charset='));
  if (!NOTE_FILE_TYPES.has(type.trim()) || (charset && !/^charset="?utf-8"?$/.test(charset))) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The note file must be text/plain or text/markdown, in UTF-8',
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.buffer);
  } catch {
    throw new AppError('UNPROCESSABLE', 'The note file is not valid UTF-8');
  }
};

/**
 * A multipart `PUT /api/notes/{id}` (title, tags and images as JSON, the body as the file
 * part `note`) as a JSON update would send it, validated by the same schema.
 */
export const noteUpdateFromForm = async (
  req: Request,
  res: Response,
): Promise<Parsed<typeof NoteUpdate>> => {
  await parseForm(req, res);
  const fields: unknown = req.body;
  if (typeof fields === 'object' && fields !== null && 'note' in fields) {
    throw new AppError('BAD_REQUEST', 'Send the note body as a file part named note');
  }
  const update: Record<string, unknown> = { ...NoteUpdateFormFields.parse(fields ?? {}) };
  if (req.file) update.note = noteText(req.file);
  assertNoNul(update);
  return NoteUpdate.parse(update);
};
