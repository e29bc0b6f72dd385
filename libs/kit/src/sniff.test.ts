import { describe, expect, it } from 'vitest';
import { sniffImage } from './sniff.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    ),
  );

describe('sniffImage', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
    ['png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'IHDR')],
    ['gif', bytes('GIF89a', [1, 0])],
    ['gif', bytes('GIF87a', [1, 0])],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ')],
    ['avif', bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0])],
  ])('recognises %s by its magic bytes', (format, content) => {
    expect(sniffImage(content)).toBe(format);
  });

  it.each([
    ['empty', bytes()],
    ['text', bytes('hello')],
    ['HTML', bytes('<!doctype html><img src=x>')],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a truncated PNG signature', bytes([0x89], 'PNG')],
    ['RIFF that is not WebP', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
    ['HEIC', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0])],
    ['MP4', bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 0, 0])],
  ])('refuses %s', (_name, content) => {
    expect(sniffImage(content)).toBeUndefined();
  });
});
