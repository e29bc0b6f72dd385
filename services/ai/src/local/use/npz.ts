import { closeSync, fstatSync, openSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { readAt } from '../read-at.js';

/** One array of a NumPy `.npz` file, C order, of the dtypes the model's weights use. */
export interface NpyArray {
  shape: number[];
  data: Float32Array | Float64Array | Uint8Array | Int8Array;
}

const ZIP_END = 0x06054b50;
const ZIP_CENTRAL = 0x02014b50;
const ZIP_LOCAL = 0x04034b50;
const ZIP_STORED = 0;
const ZIP_DEFLATED = 8;
/** The end record (22 bytes) and the longest comment a zip may have after it. */
const ZIP_TAIL = 22 + 0xffff;

/** Little-endian dtypes only: every platform Node runs on here is little-endian. */
const DTYPES: Record<
  string,
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | Uint8ArrayConstructor
  | Int8ArrayConstructor
  | undefined
> = {
  '<f4': Float32Array,
  '<f8': Float64Array,
  '|u1': Uint8Array,
  '|i1': Int8Array,
};

const readBuffer = (fd: number, position: number, length: number): Buffer =>
  readAt(fd, position, length, Buffer.allocUnsafe(length));

const typedArray = (
  dtype: string,
  bytes: Buffer,
  count: number,
  shared: boolean,
): NpyArray['data'] => {
  const type = DTYPES[dtype];
  if (!type) throw new Error(`npz: unsupported dtype ${dtype}`);
  if (shared) {
    // The typed arrays' constructors take a SharedArrayBuffer too; their union's type says not.
    const buffer = new SharedArrayBuffer(count * type.BYTES_PER_ELEMENT) as unknown as ArrayBuffer;
    const array = new type(buffer);
    new Uint8Array(array.buffer).set(bytes.subarray(0, array.byteLength));
    return array;
  }
  if (bytes.byteOffset % type.BYTES_PER_ELEMENT === 0) {
    return new type(bytes.buffer as ArrayBuffer, bytes.byteOffset, count);
  }
  return new type(
    Uint8Array.from(bytes.subarray(0, count * type.BYTES_PER_ELEMENT)).buffer,
    0,
    count,
  );
};

/** Parses one `.npy` (format 1, 2 or 3). */
const parseNpy = (npy: Buffer, shared: boolean): NpyArray => {
  if (npy.readUInt32BE(0) !== 0x934e554d || npy.toString('latin1', 4, 6) !== 'PY') {
    throw new Error('npz: an entry is not an .npy array');
  }
  const major = npy[6];
  const headerLength = major === 1 ? npy.readUInt16LE(8) : npy.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header = npy.toString('latin1', headerStart, headerStart + headerLength);
  const dtype = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  if (!dtype) throw new Error('npz: an array has no dtype');
  if (/'fortran_order':\s*True/.test(header)) throw new Error('npz: Fortran order unsupported');
  const shape = (/'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? '')
    .split(',')
    .map((size) => size.trim())
    .filter(Boolean)
    .map(Number);
  const count = shape.reduce((product, size) => product * size, 1);
  return {
    shape,
    data: typedArray(dtype, npy.subarray(headerStart + headerLength), count, shared),
  };
};

/**
 * Reads the arrays of the NumPy `.npz` (a zip of `.npy` files, stored or deflated) at `path`,
 * by name without `.npy`. Entries are read one at a time from the file, so the compressed
 * archive is never held whole next to the arrays; `only` picks the arrays read, by name.
 * `shared` puts each array in a SharedArrayBuffer of its own, so that worker threads can be
 * handed the arrays without a copy.
 */
export const readNpz = (
  path: string,
  { shared = false, only }: { shared?: boolean; only?: (name: string) => boolean } = {},
): Map<string, NpyArray> => {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tailStart = Math.max(0, size - ZIP_TAIL);
    const tail = readBuffer(fd, tailStart, size - tailStart);
    let end = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === ZIP_END) {
        end = i;
        break;
      }
    }
    if (end < 0) throw new Error('npz: not a zip file');
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryStart = tail.readUInt32LE(end + 16);
    if (entries === 0xffff || directoryStart === 0xffffffff) {
      throw new Error('npz: zip64 unsupported');
    }
    const directory = readBuffer(fd, directoryStart, directorySize);
    const arrays = new Map<string, NpyArray>();
    let at = 0;
    for (let n = 0; n < entries; n++) {
      if (directory.readUInt32LE(at) !== ZIP_CENTRAL) throw new Error('npz: bad central directory');
      const method = directory.readUInt16LE(at + 10);
      const compressedSize = directory.readUInt32LE(at + 20);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localHeader = directory.readUInt32LE(at + 42);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      at += 46 + nameLength + extraLength + commentLength;
      if (only && !only(name.replace(/\.npy$/, ''))) continue;

      const local = readBuffer(fd, localHeader, 30);
      if (local.readUInt32LE(0) !== ZIP_LOCAL) throw new Error('npz: bad local header');
      const dataStart = localHeader + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const raw = readBuffer(fd, dataStart, compressedSize);
      if (method !== ZIP_STORED && method !== ZIP_DEFLATED) {
        throw new Error(`npz: compression method ${method} unsupported`);
      }
      arrays.set(
        name.replace(/\.npy$/, ''),
        parseNpy(method === ZIP_STORED ? raw : inflateRawSync(raw), shared),
      );
    }
    return arrays;
  } finally {
    closeSync(fd);
  }
};
