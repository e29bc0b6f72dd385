import { readSync } from 'node:fs';

/**
 * Reads `length` bytes at `position` of `fd` into `into` (a fresh array by default), however
 * many reads that takes: the local models read their files in pieces rather than whole.
 */
export const readAt = <T extends Uint8Array = Uint8Array>(
  fd: number,
  position: number,
  length: number,
  into: T = new Uint8Array(length) as T,
): T => {
  for (let done = 0; done < length;) {
    const read = readSync(fd, into, done, length - done, position + done);
    if (read === 0) throw new Error(`the file ends before byte ${position + length}`);
    done += read;
  }
  return into;
};
