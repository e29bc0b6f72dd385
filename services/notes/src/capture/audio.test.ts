import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import { wavTone } from '@noted/testing';
import { checkDuration, readAudio, sniffAudio, type AudioInfo } from './audio.js';

/** Made by fixtures/make.sh: 3 s of a 440 Hz sine each. */
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

/** A 16-bit mono PCM WAV of a 440 Hz sine. */
const wav = (seconds: number) => new Uint8Array(wavTone(seconds));

const bytes = (...parts: (string | number[] | Uint8Array)[]) =>
  new Uint8Array(
    Buffer.concat(
      parts.map((part) =>
        typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
      ),
    ),
  );

/** A seeded generator (mulberry32), so a failing case can be run again. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const randomBytes = (next: () => number, length: number) =>
  Uint8Array.from({ length }, () => Math.floor(next() * 256));

const notAudio = { code: 'NOT_AUDIO', status: 422 };

const expectNotAudio = async (data: Uint8Array) => {
  const error = await readAudio(data).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({
    ...notAudio,
    message: 'The file given is not audio (webm, ogg, mp3, m4a or wav)',
  });
};

/** Audio with a length, or NOT_AUDIO: never another error, never a hang. */
const expectAudioOrRefused = async (data: Uint8Array) => {
  try {
    const info = await readAudio(data);
    expect(info.durationSeconds === null || info.durationSeconds > 0).toBe(true);
    expect(Number.isFinite(info.durationSeconds ?? 0)).toBe(true);
    return 'audio';
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject(notAudio);
    return 'refused';
  }
};

const samples: [string, () => Uint8Array, Omit<AudioInfo, 'durationSeconds'>][] = [
  [
    'WebM/Opus as MediaRecorder writes it (no Duration, unknown sizes)',
    () => fixture('tone-mediarecorder.webm'),
    { format: 'webm', mimeType: 'audio/webm', extension: 'webm' },
  ],
  [
    'WebM/Opus with a Duration',
    () => fixture('tone.webm'),
    { format: 'webm', mimeType: 'audio/webm', extension: 'webm' },
  ],
  [
    'Ogg/Opus',
    () => fixture('tone-opus.ogg'),
    { format: 'ogg', mimeType: 'audio/ogg', extension: 'ogg' },
  ],
  [
    'Ogg/Vorbis',
    () => fixture('tone-vorbis.ogg'),
    { format: 'ogg', mimeType: 'audio/ogg', extension: 'ogg' },
  ],
  [
    'MP3 (ID3 tag, LAME header)',
    () => fixture('tone.mp3'),
    { format: 'mp3', mimeType: 'audio/mpeg', extension: 'mp3' },
  ],
  [
    'MP3 without a tag (frame sync first)',
    () => {
      const file = fixture('tone.mp3');
      // ID3v2: 10 bytes of header, then a syncsafe size.
      const size =
        ((file[6]! & 0x7f) << 21) |
        ((file[7]! & 0x7f) << 14) |
        ((file[8]! & 0x7f) << 7) |
        (file[9]! & 0x7f);
      return file.subarray(10 + size);
    },
    { format: 'mp3', mimeType: 'audio/mpeg', extension: 'mp3' },
  ],
  [
    'M4A (AAC)',
    () => fixture('tone.m4a'),
    { format: 'm4a', mimeType: 'audio/mp4', extension: 'm4a' },
  ],
  [
    'fragmented M4A (as Safari records)',
    () => fixture('tone-fragmented.m4a'),
    { format: 'm4a', mimeType: 'audio/mp4', extension: 'm4a' },
  ],
  ['WAV (PCM)', () => wav(3), { format: 'wav', mimeType: 'audio/wav', extension: 'wav' }],
];

describe('readAudio', () => {
  it.each(samples)('reads %s, with its length', async (_name, make, expected) => {
    const info = await readAudio(make());
    expect(info).toMatchObject(expected);
    expect(info.durationSeconds).not.toBeNull();
    expect(Math.abs((info.durationSeconds ?? 0) - 3)).toBeLessThan(0.2);
  });

  it('reads the length of a longer WAV', async () => {
    expect((await readAudio(wav(7.5))).durationSeconds).toBeCloseTo(7.5, 3);
  });

  it.each([
    ['empty', bytes()],
    [
      'PNG',
      bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', new Uint8Array(64)),
    ],
    ['PDF', bytes('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n')],
    ['text', bytes('Just some notes, not a recording at all.\n'.repeat(20))],
    ['HTML', bytes('<!doctype html><audio src="x.mp3"></audio>')],
    ['random bytes', randomBytes(random(1), 4096)],
    ['AVI (RIFF, not WAVE)', bytes('RIFF', [0, 0, 0, 0], 'AVI LIST', new Uint8Array(64))],
    ['WebP (RIFF, not WAVE)', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ', new Uint8Array(64))],
    ['HEIC (ftyp, an image brand)', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic')],
    ['AVIF (ftyp, an image brand)', bytes([0, 0, 0, 0x18], 'ftypavif', [0, 0, 0, 0], 'mif1avif')],
    [
      'Ogg/Theora',
      bytes('OggS', [0, 2], new Uint8Array(20), [1, 42], [0x80], 'theora', new Uint8Array(64)),
    ],
    [
      'Matroska that is not WebM',
      bytes([0x1a, 0x45, 0xdf, 0xa3, 0x88, 0x42, 0x82, 0x85], 'mkv\0\0', new Uint8Array(64)),
    ],
    ['AAC in ADTS (layer 0)', bytes([0xff, 0xf1, 0x50, 0x80], new Uint8Array(64))],
    [
      'a frame sync with a reserved sample rate',
      bytes([0xff, 0xfb, 0x9c, 0x44], new Uint8Array(64)),
    ],
  ])('refuses %s', async (_name, content) => {
    await expectNotAudio(content);
  });
});

describe('readAudio on hostile and damaged files', () => {
  it.each([
    [
      'RIFF....WAVE then garbage',
      () => bytes('RIFF', [0xff, 0xff, 0xff, 0x7f], 'WAVE', randomBytes(random(2), 2048)),
    ],
    ['RIFF....WAVE and nothing else', () => bytes('RIFF', [4, 0, 0, 0], 'WAVE')],
    [
      'an ID3 tag followed by a PNG',
      () =>
        bytes(
          'ID3',
          [4, 0, 0, 0, 0, 0, 10],
          new Uint8Array(10),
          [0x89],
          'PNG',
          [0x0d, 0x0a, 0x1a, 0x0a],
          randomBytes(random(3), 512),
        ),
    ],
    [
      'an ID3 tag that claims 256 MB',
      () => bytes('ID3', [4, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f], randomBytes(random(4), 512)),
    ],
    [
      'the EBML header of a WebM, then garbage',
      () => bytes(fixture('tone-mediarecorder.webm').subarray(0, 40), randomBytes(random(5), 2048)),
    ],
    [
      'a WebM Segment of unknown size holding only garbage',
      () => bytes(fixture('tone-mediarecorder.webm').subarray(0, 52), randomBytes(random(6), 2048)),
    ],
    ['an Ogg first page with nothing after it', () => fixture('tone-opus.ogg').subarray(0, 47)],
    [
      'an M4A ftyp then a moov that claims 4 GB',
      () =>
        bytes(
          fixture('tone.m4a').subarray(0, 32),
          [0xff, 0xff, 0xff, 0xff],
          'moov',
          randomBytes(random(7), 512),
        ),
    ],
    [
      'an M4A ftyp then garbage',
      () => bytes(fixture('tone.m4a').subarray(0, 32), randomBytes(random(8), 4096)),
    ],
    [
      'an MPEG frame header then garbage',
      () => bytes([0xff, 0xfb, 0x90, 0x44], randomBytes(random(9), 4096)),
    ],
  ])('refuses %s, as NOT_AUDIO', async (_name, make) => {
    await expectNotAudio(make());
  });

  it('reads a WAV whose sizes claim 4 GB (as one written as a stream) by the bytes there', async () => {
    const file = wav(2);
    new DataView(file.buffer).setUint32(4, 0xffffffff, true);
    new DataView(file.buffer).setUint32(40, 0xffffffff, true);
    expect((await readAudio(file)).durationSeconds).toBeCloseTo(2, 2);
  });

  const files = samples.map(([name, make]) => [name, make] as const);

  it.each(files)('reads %s cut short, or refuses it as NOT_AUDIO', async (_name, make) => {
    const file = make();
    const outcomes = new Set<string>();
    for (const length of [
      4,
      12,
      40,
      100,
      300,
      1000,
      3000,
      Math.floor(file.length / 2),
      file.length - 1,
    ]) {
      outcomes.add(await expectAudioOrRefused(file.subarray(0, length)));
    }
    // A file cut within its first bytes is never taken.
    await expectNotAudio(file.subarray(0, 12));
    expect(outcomes.has('refused')).toBe(true);
  });

  it.each(files)(
    'reads %s with random bytes after its header, or refuses it',
    async (_name, make) => {
      const file = make();
      const next = random(file.length);
      const started = performance.now();
      for (let round = 0; round < 40; round += 1) {
        const keep = 16 + Math.floor(next() * 600);
        await expectAudioOrRefused(
          bytes(file.subarray(0, keep), randomBytes(next, Math.floor(next() * 8192))),
        );
      }
      expect(performance.now() - started).toBeLessThan(5_000);
    },
  );

  it.each(files)(
    'reads %s with bytes overwritten at random, or refuses it',
    async (_name, make) => {
      const file = make();
      const next = random(file.length + 1);
      for (let round = 0; round < 40; round += 1) {
        const damaged = file.slice();
        for (let hits = 0; hits < 1 + Math.floor(next() * 32); hits += 1) {
          damaged[Math.floor(next() * damaged.length)] = Math.floor(next() * 256);
        }
        await expectAudioOrRefused(damaged);
      }
    },
  );
});

describe('sniffAudio', () => {
  it.each([
    ['webm', bytes(fixture('tone-mediarecorder.webm').subarray(0, 64))],
    ['ogg', bytes(fixture('tone-opus.ogg').subarray(0, 64))],
    ['ogg', bytes(fixture('tone-vorbis.ogg').subarray(0, 64))],
    ['mp3', bytes('ID3', [3, 0, 0, 0, 0, 0, 0])],
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x44])],
    ['mp3', bytes([0xff, 0xf3, 0x64, 0xc4])],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0])],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0])],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypmp42', [0, 0, 0, 0])],
    ['wav', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt ')],
  ])('recognises %s by its first bytes', (format, head) => {
    expect(sniffAudio(head)).toBe(format);
  });

  it.each([
    ['empty', bytes()],
    ['the EBML magic alone', bytes([0x1a, 0x45, 0xdf, 0xa3])],
    ['OggS alone', bytes('OggS')],
    ['an ID3 tag of an unknown version', bytes('ID3', [9, 0, 0])],
    [
      'a PNG followed by an ID3 tag',
      bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'ID3', [4, 0, 0]),
    ],
    ['a JPEG', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
  ])('does not recognise %s', (_name, head) => {
    expect(sniffAudio(head)).toBeUndefined();
  });
});

describe('checkDuration', () => {
  const info = (durationSeconds: number | null): AudioInfo => ({
    format: 'webm',
    mimeType: 'audio/webm',
    extension: 'webm',
    durationSeconds,
  });

  it('takes a recording within the limit', () => {
    expect(() => checkDuration(info(59.9), 60)).not.toThrow();
    expect(() => checkDuration(info(60), 60)).not.toThrow();
  });

  it('takes the frame a recorder stopped at the limit still writes', () => {
    expect(() => checkDuration(info(60.4), 60)).not.toThrow();
  });

  it('refuses a recording over the limit, saying both lengths', () => {
    let error: unknown;
    try {
      checkDuration(info(61.2), 60);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'RECORDING_TOO_LONG',
      status: 422,
      message: 'The recording is 61 s; your plan takes up to 60 s',
      details: { seconds: 61, limit: 60 },
    });
  });

  it('refuses a real recording over a real limit', async () => {
    const recording = await readAudio(fixture('tone-mediarecorder.webm'));
    expect(() => checkDuration(recording, 2)).toThrow(
      expect.objectContaining({ code: 'RECORDING_TOO_LONG', details: { seconds: 3, limit: 2 } }),
    );
    expect(() => checkDuration(recording, 3)).not.toThrow();
  });

  it('takes any length, and an unknown one, when the plan has no limit', () => {
    expect(() => checkDuration(info(10 * 3600), -1)).not.toThrow();
    expect(() => checkDuration(info(null), -1)).not.toThrow();
  });

  it('refuses a length that cannot be read when there is a limit', () => {
    expect(() => checkDuration(info(null), 60)).toThrow(
      expect.objectContaining({
        code: 'UNPROCESSABLE',
        message: 'The length of the audio cannot be read',
      }),
    );
  });
});
