/** The image formats Noted takes (note images, feedback screenshots), as their magic bytes say. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The format the content itself declares, or undefined. File names and declared types are
 * never consulted: they are whatever the client chose to send.
 */
export const sniffImage = (bytes: Buffer): ImageFormat | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  // ISO BMFF: a box size, then `ftyp` and the major brand. HEIC is left out: the prebuilt
  // libvips cannot decode HEVC.
  if (
    startsWith(bytes, ascii('ftyp'), 4) &&
    (startsWith(bytes, ascii('avif'), 8) || startsWith(bytes, ascii('avis'), 8))
  ) {
    return 'avif';
  }
  return undefined;
};
