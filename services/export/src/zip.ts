import { Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import { crc32, deflateRaw as deflateRawCallback, deflateRawSync } from 'node:zlib';

const deflateRaw = promisify(deflateRawCallback);

/** Already compressed formats, stored as they are: deflating them again only costs time. */
const STORED_TYPES = /^image\/(webp|jpeg|png|gif|avif)$/;

export const compressible = (contentType: string) => !STORED_TYPES.test(contentType);

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
/** General purpose flag 11: the name is UTF-8. */
const UTF8_NAMES = 0x0800;
const STORED = 0;
const DEFLATED = 8;
/** "Made by" Unix (3) with version 4.5, so the external attributes are Unix modes. */
const MADE_BY = (3 << 8) | 45;
/** A regular file, rw-r--r--, in the high bits of the external attributes. */
const FILE_MODE = (0o100644 << 16) >>> 0;
const MAX_32 = 0xffffffff;
/**
 * Smaller entries (most notes) are deflated at once, in well under a millisecond: a round trip
 * to the thread pool took five times as long as the work. Larger ones go to the pool, so a
 * long note does not hold up the other requests.
 */
const SYNC_DEFLATE_BYTES = 64 * 1024;
const MAX_16 = 0xffff;

/** MS-DOS date and time (in UTC: the zip keeps no time zone; front matter has the exact time). */
const dosDateTime = (date: Date) => {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
  };
};

/**
 * A zip written as a stream, one entry at a time, with each entry's sizes and CRC in its local
 * header (no data descriptors: a reader of the stream can walk it entry by entry) and ZIP64
 * records once the archive passes 4 GB or 65,535 entries. `add` resolves once the zip's reader
 * has taken the entry, so a caller that awaits each entry holds one entry in memory however
 * large the archive grows; what is kept per entry is its central directory record (46 bytes and
 * its name).
 *
 * Written here rather than taken from a library: yazl, tried first, scans every earlier entry
 * each time it writes one (quadratic: 0.3 s of CPU at 10,000 notes, minutes at 100,000) and keeps
 * about 1.1 KB per entry; archiver's zip-stream keeps a full entry object per entry too and adds
 * seven packages. The format is small and fixed (APPNOTE 6.3); yauzl, Info-ZIP's unzip and
 * Python's zipfile read what this writes, in the tests.
 */
export const createZipWriter = (options: { zip64?: 'auto' | 'always' } = {}) => {
  let wake: (() => void) | undefined;
  const output = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      const waiting = wake;
      wake = undefined;
      waiting?.();
    },
  });
  let offset = 0;
  let entries = 0;
  /** The central directory so far: records gathered in blocks (one Buffer each costs ~100 B). */
  const directory: Buffer[] = [];
  let records: Buffer[] = [];
  let directoryBytes = 0;
  let failed: Error | undefined;
  let ended = false;
  /** Rejects the entry being written, when the zip stops under it. */
  let stopWaiting: ((error: Error) => void) | undefined;

  const fail = (error: Error) => {
    failed ??= error;
    stopWaiting?.(failed);
    output.destroy(failed);
  };
  output.once('close', () => {
    if (!output.readableEnded) fail(new Error('The zip was closed before its end'));
  });

  /** Hands bytes to the reader; resolves when it wants more. */
  const push = (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (failed) {
        reject(failed);
        return;
      }
      offset += bytes.length;
      if (output.push(bytes)) {
        resolve();
        return;
      }
      stopWaiting = reject;
      wake = () => {
        stopWaiting = undefined;
        resolve();
      };
    });

  const always = options.zip64 === 'always';

  const add = async (
    name: string,
    data: Buffer | string,
    { compress = true, mtime = new Date() }: { compress?: boolean; mtime?: Date } = {},
  ) => {
    if (failed) throw failed;
    if (ended) throw new Error('The zip has ended');
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const fileName = Buffer.from(name.replace(/\\/g, '/'));
    if (fileName.length > MAX_16) throw new Error(`A zip entry name is too long: ${name}`);
    const deflated = compress
      ? bytes.length < SYNC_DEFLATE_BYTES
        ? deflateRawSync(bytes)
        : await deflateRaw(bytes)
      : undefined;
    // Deflate may grow what does not compress: then the bytes are stored.
    const body = deflated && deflated.length < bytes.length ? deflated : bytes;
    const method = body === bytes ? STORED : DEFLATED;
    if (bytes.length >= MAX_32 || body.length >= MAX_32) {
      throw new Error(`A zip entry is too large: ${name}`);
    }
    const crc = crc32(bytes);
    const { date, time } = dosDateTime(mtime);
    const headerOffset = offset;

    const local = Buffer.alloc(30 + fileName.length);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(bytes.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);
    fileName.copy(local, 30);

    // The offset of an entry past 4 GB goes in a ZIP64 extra field of its directory record.
    const far = always || headerOffset >= MAX_32;
    const central = Buffer.alloc(46 + fileName.length + (far ? 12 : 0));
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(MADE_BY, 4);
    central.writeUInt16LE(far ? 45 : 20, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(bytes.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt16LE(far ? 12 : 0, 30);
    central.writeUInt32LE(FILE_MODE, 38);
    central.writeUInt32LE(far ? MAX_32 : headerOffset, 42);
    fileName.copy(central, 46);
    if (far) {
      const extra = 46 + fileName.length;
      central.writeUInt16LE(0x0001, extra);
      central.writeUInt16LE(8, extra + 2);
      central.writeBigUInt64LE(BigInt(headerOffset), extra + 4);
    }
    records.push(central);
    if (records.length === 512) {
      directory.push(Buffer.concat(records));
      records = [];
    }
    directoryBytes += central.length;
    entries += 1;
    await push(Buffer.concat([local, body]));
  };

  /** The central directory and its end records: the zip is complete once `stream` ends. */
  const end = async () => {
    if (failed) throw failed;
    ended = true;
    const start = offset;
    directory.push(Buffer.concat(records));
    records = [];
    for (const block of directory.splice(0)) await push(block);
    const zip64 = always || entries >= MAX_16 || start >= MAX_32 || directoryBytes >= MAX_32;
    if (zip64) {
      const record = Buffer.alloc(56 + 20);
      record.writeUInt32LE(ZIP64_END_OF_CENTRAL_DIRECTORY, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(MADE_BY, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(entries), 24);
      record.writeBigUInt64LE(BigInt(entries), 32);
      record.writeBigUInt64LE(BigInt(directoryBytes), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      record.writeUInt32LE(ZIP64_LOCATOR, 56);
      record.writeBigUInt64LE(BigInt(start + directoryBytes), 64);
      record.writeUInt32LE(1, 72);
      await push(record);
    }
    const last = Buffer.alloc(22);
    last.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    last.writeUInt16LE(zip64 ? MAX_16 : entries, 8);
    last.writeUInt16LE(zip64 ? MAX_16 : entries, 10);
    last.writeUInt32LE(zip64 ? MAX_32 : directoryBytes, 12);
    last.writeUInt32LE(zip64 ? MAX_32 : start, 16);
    await push(last);
    output.push(null);
  };

  return {
    /** The zip's bytes, as they are written. */
    stream: output,
    add,
    end,
    /** Stops the zip: its stream errors (a reader sees it broken, never complete). */
    abort: fail,
  };
};

export type ZipWriter = ReturnType<typeof createZipWriter>;

/**
 * Gathers the zip's writes into chunks of `size` bytes, so that a response of many small notes
 * makes one write of 64 KB rather than one per note.
 */
export const coalesce = (size = 64 * 1024) => {
  let parts: Buffer[] = [];
  let length = 0;
  const take = () => {
    const all = Buffer.concat(parts, length);
    parts = [];
    length = 0;
    return all;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      parts.push(chunk);
      length += chunk.length;
      done(null, length >= size ? take() : undefined);
    },
    flush(done) {
      done(null, length > 0 ? take() : undefined);
    },
  });
};
