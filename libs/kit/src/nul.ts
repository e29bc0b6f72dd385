import { AppError } from '@noted/api';
import type { RequestHandler } from 'express';

/**
 * Noted stores text in Postgres, whose text cannot hold U+0000. Every request is held to that
 * at the edge: a NUL anywhere in the address (path or query, encoded as %00 or not) before any
 * route, and in any string of a body once its route's contract has read it (keys it does not
 * know are dropped, not refused), with 400 VALIDATION_FAILED naming where it is, instead of
 * failing later in a query as a 500.
 */
const NUL = '\u0000';
const ENCODED_NUL = /%00/i;

/** Where in a parsed JSON value a string (or a key) holds NUL: `tags.2`, `note`; or undefined. */
export const nulPath = (value: unknown, path: string[] = []): string | undefined => {
  if (typeof value === 'string')
    return value.includes(NUL) ? path.join('.') || '(body)' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return [...path, key.replaceAll(NUL, '\\0')].join('.');
      const found = nulPath(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
};

const refused = (where: string) =>
  new AppError(
    'VALIDATION_FAILED',
    `${where}: contains a NUL character (U+0000), which Noted cannot store`,
    [{ path: where, message: 'contains a NUL character (U+0000)' }],
  );

/** Refuses a NUL in the address of any request (path and query). */
export const refuseNulInAddress: RequestHandler = (req, _res, next) => {
  const url = req.originalUrl;
  if (url.includes(NUL) || ENCODED_NUL.test(url)) {
    const queryAt = url.indexOf('?');
    const inQuery =
      queryAt >= 0 && (url.slice(queryAt).includes(NUL) || ENCODED_NUL.test(url.slice(queryAt)));
    next(refused(inQuery ? 'query' : 'path'));
    return;
  }
  next();
};

/** Throws the same refusal when any string of `value` (a parsed form, say) holds NUL. */
export const assertNoNul = (value: unknown): void => {
  const where = nulPath(value);
  if (where !== undefined) throw refused(where);
};

/** Whether a text holds NUL (a token claim, a user name). */
export const hasNul = (text: string): boolean => text.includes(NUL);
