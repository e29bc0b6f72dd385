import { AppError } from '@noted/api';

const maxKeyLength = 1024;
// Control characters and backslashes never belong in a key; they confuse paths and logs.
const hasForbiddenCharacter = (value: string): boolean => {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
};

const checkSegments = (value: string, allowTrailingSlash: boolean): boolean => {
  if (value.length > maxKeyLength || hasForbiddenCharacter(value) || value.startsWith('/'))
    return false;
  const segments = value.split('/');
  if (allowTrailingSlash && segments.length > 1 && segments[segments.length - 1] === '')
    segments.pop();
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
};

/** A key is `<segment>/<segment>/...`: relative, no empty, `.` or `..` segments. */
export const assertKey = (key: string): void => {
  if (!checkSegments(key, false)) {
    throw new AppError('BAD_REQUEST', `invalid object key ${JSON.stringify(key.slice(0, 200))}`);
  }
};

/** A list prefix: empty, or like a key that may end in `/` or in part of a segment. */
export const assertPrefix = (prefix: string): void => {
  if (prefix !== '' && !checkSegments(prefix, true)) {
    throw new AppError(
      'BAD_REQUEST',
      `invalid object key prefix ${JSON.stringify(prefix.slice(0, 200))}`,
    );
  }
};
