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

/** A value still to look at, with the key it sits under and the step it sits in. */
interface Step {
  value: unknown;
  key: string;
  parent: Step | undefined;
}

/** A path is named by its first segments only: a NUL 10,000 levels down is not a 20 KB message. */
const SHOWN_SEGMENTS = 16;

const pathOf = (step: Step): string => {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.parent; at = at.parent) keys.push(at.key);
  keys.reverse();
  if (keys.length === 0) return '(body)';
  if (keys.length <= SHOWN_SEGMENTS) return keys.join('.');
  return `${keys.slice(0, SHOWN_SEGMENTS).join('.')}.…`;
};

/**
 * Where in a parsed JSON value a string (or a key) holds NUL: `tags.2`, `note`; or undefined.
 * The walk keeps its own stack, so a body nested 100,000 levels deep (a few hundred KB of `[`)
 * is read like any other instead of overflowing the call stack; the first NUL in document order
 * is the one named.
 */
export const nulPath = (value: unknown): string | undefined => {
  const pending: Step[] = [{ value, key: '', parent: undefined }];
  // Parsed JSON has no cycles, but a value built in code might: it must not loop for ever.
  const seen = new WeakSet<object>();
  for (let step = pending.pop(); step; step = pending.pop()) {
    // Only an object's keys can hold NUL (an array's are its indexes).
    if (step.key.includes(NUL)) return pathOf({ ...step, key: step.key.replaceAll(NUL, '\\0') });
    const current = step.value;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return pathOf(step);
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const entries = Array.isArray(current)
      ? current.map((item, index): [string, unknown] => [String(index), item])
      : Object.entries(current);
    // Last to first, so that the first child is looked at next: the first NUL in the text wins.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i] as [string, unknown];
      pending.push({ value: item, key, parent: step });
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
