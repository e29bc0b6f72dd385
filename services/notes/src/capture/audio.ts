import { parseBuffer } from 'music-metadata';
import { AppError } from '@noted/api';
import { readWebm, webmDocType } from './webm.js';

/** The audio formats taken for a recording, as their magic bytes say. */
export type AudioFormat = 'webm' | 'ogg' | 'mp3' | 'm4a' | 'wav';

export interface AudioInfo {
  format: AudioFormat;
  /** audio/webm, audio/ogg, audio/mpeg, audio/mp4 or audio/wav. */
  mimeType: string;
  extension: string;
  /** Null when the content does not tell how long it is. */
  durationSeconds: number | null;
}

const mimeTypes: Record<AudioFormat, string> = {
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
};

const extensions: Record<AudioFormat, string> = {
  webm: 'webm',
  ogg: 'ogg',
  mp3: 'mp3',
  m4a: 'm4a',
  wav: 'wav',
};

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * An MPEG audio frame header (layer I, II or III): the 11-bit sync, then a version, layer,
 * bitrate and sample rate that are not the reserved values. ADTS (AAC) has layer 0 and is left
 * out, so is a free-format or "bad" bitrate.
 */
const isMpegFrame = (bytes: Uint8Array, at: number) => {
  const [b0, b1, b2] = [bytes[at], bytes[at + 1], bytes[at + 2]];
  if (b0 !== 0xff || b1 === undefined || b2 === undefined) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0b11;
  return (
    (b1 & 0xe0) === 0xe0 &&
    version !== 0b01 &&
    layer !== 0b00 &&
    bitrate !== 0b0000 &&
    bitrate !== 0b1111 &&
    sampleRate !== 0b11
  );
};

/** The ISO BMFF major brands of audio (and audio-with-video) MP4 files, not of HEIF images. */
const mp4Brands = new Set([
  'M4A ',
  'M4B ',
  'mp41',
  'mp42',
  'isom',
  'iso2',
  'iso4',
  'iso5',
  'iso6',
  'dash',
  '3gp4',
  '3gp5',
  '3gp6',
]);

/**
 * The format the content itself declares, or undefined. File names and declared types are
 * never consulted: they are whatever the client chose to send. Only the first bytes are read,
 * so `head` may be the start of an upload.
 */
export const sniffAudio = (head: Uint8Array): AudioFormat | undefined => {
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) {
    return webmDocType(head) === 'webm' ? 'webm' : undefined;
  }
  if (startsWith(head, ascii('OggS')) && head[4] === 0) {
    // The first page holds the codec's identification header, after the segment table.
    const packet = 27 + (head[26] ?? 0);
    return startsWith(head, ascii('OpusHead'), packet) ||
      startsWith(head, [0x01, ...ascii('vorbis')], packet)
      ? 'ogg'
      : undefined;
  }
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8)) return 'wav';
  if (startsWith(head, ascii('ftyp'), 4)) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    return mp4Brands.has(brand) ? 'm4a' : undefined;
  }
  if (startsWith(head, ascii('ID3')) && [2, 3, 4].includes(head[3] ?? 0) && head[4] !== 0xff) {
    return 'mp3';
  }
  if (isMpegFrame(head, 0)) return 'mp3';
  return undefined;
};

type ParsedFormat = 'ogg' | 'mp3' | 'm4a' | 'wav';

/** The container music-metadata names once it has read a file of each format it is given. */
const containerMatches: Record<ParsedFormat, (container: string) => boolean> = {
  ogg: (container) => container === 'Ogg',
  mp3: (container) => container === 'MPEG',
  // The major brand, then the compatible ones, without their padding.
  m4a: (container) => mp4Brands.has(container.split('/')[0]?.padEnd(4, ' ') ?? ''),
  wav: (container) => container === 'WAVE',
};

const notAudio = () =>
  new AppError('NOT_AUDIO', 'The file given is not audio (webm, ogg, mp3, m4a or wav)');

/** No audio file with an audio stream plays for no time: a zero length is one not read. */
const usableDuration = (seconds: number | undefined) =>
  seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;

/** WebM is read here (see webm.ts): an audio track and at least one block of it. */
const webmDuration = (data: Uint8Array) => {
  const webm = readWebm(data);
  if (!webm.hasAudioTrack || webm.blocks === 0) throw notAudio();
  return webm.durationSeconds;
};

/**
 * The rest by music-metadata, with the parser of the sniffed format only (a file that starts
 * as one format is never read as another): audio when that parser reads its container, finds
 * an audio stream in it and can tell how long it plays (with `duration: true` it counts the
 * frames or pages when the headers do not say, so a file it cannot time holds none it found).
 */
const parsedDuration = async (data: Uint8Array, format: ParsedFormat) => {
  const metadata = await parseBuffer(
    data,
    { mimeType: mimeTypes[format], size: data.length },
    { duration: true, skipCovers: true },
  ).catch(() => {
    throw notAudio();
  });
  const { container, hasAudio, sampleRate, codec, duration, bitrate } = metadata.format;
  const hasAudioStream = hasAudio !== false && (sampleRate !== undefined || codec !== undefined);
  const seconds = usableDuration(duration);
  if (!container || !containerMatches[format](container) || !hasAudioStream || !seconds) {
    throw notAudio();
  }
  // A WAV's length is its data chunk's declared size; one written as a stream declares the
  // most there is (4 GB). It cannot play longer than the bytes that are there.
  if (format === 'wav' && bitrate) return Math.min(seconds, (data.length * 8) / bitrate);
  return seconds;
};

/**
 * Sniffs the bytes and reads the file as the format they say, or throws NOT_AUDIO. The length
 * comes from the headers (from the blocks too for WebM); a file whose headers understate its
 * length is left to the upload's byte cap.
 */
export const readAudio = async (data: Uint8Array): Promise<AudioInfo> => {
  const format = sniffAudio(data);
  if (!format) throw notAudio();
  const seconds = format === 'webm' ? webmDuration(data) : await parsedDuration(data, format);
  return {
    format,
    mimeType: mimeTypes[format],
    extension: extensions[format],
    durationSeconds: usableDuration(seconds) ?? null,
  };
};

/**
 * A recorder stopped by a timer at the plan's limit still writes the frame it was in, so a
 * recording may run this far past the limit and be taken.
 */
const GRACE_SECONDS = 0.5;

/**
 * Refuses a recording longer than the plan takes (`limitSeconds`, -1 for no limit). A length
 * that cannot be read is refused too unless there is no limit: it could be any length.
 */
export const checkDuration = (info: AudioInfo, limitSeconds: number): void => {
  if (limitSeconds < 0) return;
  if (info.durationSeconds === null) {
    throw new AppError('UNPROCESSABLE', 'The length of the audio cannot be read');
  }
  if (info.durationSeconds > limitSeconds + GRACE_SECONDS) {
    // Past the grace, this is at least a second over a limit of whole seconds.
    const seconds = Math.round(info.durationSeconds);
    throw new AppError(
      'RECORDING_TOO_LONG',
      `The recording is ${seconds} s; your plan takes up to ${limitSeconds} s`,
      { seconds, limit: limitSeconds },
    );
  }
};
