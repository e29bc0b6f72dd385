import { afterEach, describe, expect, it, vi } from 'vitest';
import { prepareUpload } from './compress';

const file = (size: number, type: string) => new File([new Uint8Array(size)], 'f', { type });

afterEach(() => vi.restoreAllMocks());

describe('prepareUpload', () => {
  it('sends the compressed copy when it is smaller', async () => {
    const small = new Blob([new Uint8Array(10)], { type: 'image/jpeg' });
    expect(await prepareUpload(file(100, 'image/jpeg'), async () => small)).toBe(small);
  });

  it('sends the original when the copy is not smaller', async () => {
    const original = file(100, 'image/png');
    const same = new Blob([new Uint8Array(100)], { type: 'image/png' });
    expect(await prepareUpload(original, async () => same)).toBe(original);
  });

  it('sends the original, with a warning, when compression fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const original = file(100, 'image/webp');
    const failing = async (): Promise<Blob> => {
      throw new Error('no canvas');
    };
    expect(await prepareUpload(original, failing)).toBe(original);
    expect(warn).toHaveBeenCalledWith(
      '[noted/notes] Compressing an image failed; the original is sent.',
      expect.any(Error),
    );
  });

  it('leaves GIFs and files that do not say they are images to the server', async () => {
    const compress = vi.fn(async () => new Blob());
    const gif = file(100, 'image/gif');
    const unknown = file(100, '');
    expect(await prepareUpload(gif, compress)).toBe(gif);
    expect(await prepareUpload(unknown, compress)).toBe(unknown);
    expect(compress).not.toHaveBeenCalled();
  });
});
