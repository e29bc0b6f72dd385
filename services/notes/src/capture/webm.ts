/**
 * Just enough EBML to take a WebM recording: its DocType, whether it has an audio track, and how
 * long it plays. music-metadata cannot read what a browser's MediaRecorder writes: the recorder
 * streams the file as it records, so it leaves the sizes of the Segment and of every Cluster
 * unknown (all ones) and never goes back to write a Duration, and music-metadata takes the
 * unknown size for a length, then refuses it.
 */

interface Vint {
  value: number;
  length: number;
  /** A size of all ones: what a live recorder writes for an element it has not finished. */
  unknown: boolean;
}

/** An EBML variable-length integer at `at`: an ID keeps its marker bit, a size does not. */
const readVint = (bytes: Uint8Array, at: number, kind: 'id' | 'size'): Vint | undefined => {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (length > (kind === 'id' ? 4 : 8) || at + length > bytes.length) return undefined;
  const dataBits = 0xff >> length;
  let value = kind === 'id' ? first : first & dataBits;
  let allOnes = (first & dataBits) === dataBits;
  for (let i = 1; i < length; i += 1) {
    const byte = bytes[at + i] as number;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: kind === 'size' && allOnes };
};

const readUint = (bytes: Uint8Array, at: number, length: number) => {
  let value = 0;
  for (let i = 0; i < length; i += 1) value = value * 256 + (bytes[at + i] as number);
  return value;
};

const readFloat = (bytes: Uint8Array, at: number, length: number) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, length);
  if (length === 4) return view.getFloat32(0);
  if (length === 8) return view.getFloat64(0);
  return undefined;
};

const EBML_HEADER = 0x1a45dfa3;
const DOC_TYPE = 0x4282;

/** The DocType in the EBML header at the start of `head` (`webm` for what browsers record). */
export const webmDocType = (head: Uint8Array): string | undefined => {
  const id = readVint(head, 0, 'id');
  const size = id && readVint(head, id.length, 'size');
  if (id?.value !== EBML_HEADER || !size || size.unknown) return undefined;
  const end = Math.min(head.length, id.length + size.length + size.value);
  let at = id.length + size.length;
  while (at < end) {
    const child = readVint(head, at, 'id');
    const childSize = child && readVint(head, at + child.length, 'size');
    if (!child || !childSize || childSize.unknown) return undefined;
    const body = at + child.length + childSize.length;
    if (body + childSize.value > end) return undefined;
    if (child.value === DOC_TYPE) {
      if (childSize.value > 32) return undefined;
      return String.fromCharCode(...head.subarray(body, body + childSize.value)).replace(
        /\0+$/,
        '',
      );
    }
    at = body + childSize.value;
  }
  return undefined;
};

const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const AUDIO_TRACK = 2;
const CLUSTER = 0x1f43b675;
const CLUSTER_TIMECODE = 0xe7;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const SIMPLE_BLOCK = 0xa3;
/** Elements whose children are read; every other element is stepped over whole. */
const containers = new Set([SEGMENT, INFO, TRACKS, TRACK_ENTRY, CLUSTER, BLOCK_GROUP]);

export interface WebmContent {
  /** A track of type audio is declared. */
  hasAudioTrack: boolean;
  /** How many blocks (of any track) there are. */
  blocks: number;
  /** The longer of the declared Duration and the blocks' span, in seconds. */
  durationSeconds?: number;
}

/**
 * One pass over the element headers after the EBML header, never past the end of the buffer
 * and stopping at the first thing that is not an element (what follows garbage is not read).
 * Each track ends one block step after its last block starts; a declared Duration is taken
 * when it is longer, so one that understates the recording is not believed.
 */
export const readWebm = (bytes: Uint8Array): WebmContent => {
  let nanosPerTick = 1_000_000;
  let declaredTicks: number | undefined;
  let hasAudioTrack = false;
  let blocks = 0;
  let clusterTime = 0;
  const tracks = new Map<number, { last: number; step: number }>();
  let at = 0;
  while (at < bytes.length) {
    const id = readVint(bytes, at, 'id');
    const size = id && readVint(bytes, at + id.length, 'size');
    if (!id || !size) break;
    const body = at + id.length + size.length;
    // An unknown-size container runs on to its parent's end, so stepping into every container
    // and reading on is right whether or not its size is known.
    if (containers.has(id.value)) {
      at = body;
      continue;
    }
    if (size.unknown || body + size.value > bytes.length) break;
    const small = size.value <= 8;
    if (id.value === TIMECODE_SCALE && small) {
      nanosPerTick = readUint(bytes, body, size.value);
    } else if (id.value === DURATION) {
      declaredTicks = readFloat(bytes, body, size.value);
    } else if (id.value === TRACK_TYPE && small) {
      hasAudioTrack ||= readUint(bytes, body, size.value) === AUDIO_TRACK;
    } else if (id.value === CLUSTER_TIMECODE && small) {
      clusterTime = readUint(bytes, body, size.value);
    } else if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
      // A block starts with its track number, then its time relative to the cluster's.
      const track = readVint(bytes, body, 'size');
      if (track && size.value >= track.length + 2) {
        blocks += 1;
        const relative = new DataView(bytes.buffer, bytes.byteOffset + body + track.length, 2);
        const start = clusterTime + relative.getInt16(0);
        const seen = tracks.get(track.value);
        if (!seen) tracks.set(track.value, { last: start, step: 0 });
        else if (start > seen.last)
          tracks.set(track.value, { last: start, step: start - seen.last });
      }
    }
    at = body + size.value;
  }

  const ends = [...tracks.values()].map(({ last, step }) => last + step);
  if (declaredTicks !== undefined && Number.isFinite(declaredTicks)) ends.push(declaredTicks);
  const ticks = Math.max(0, ...ends);
  const durationSeconds =
    ends.length > 0 && nanosPerTick > 0 ? (ticks * nanosPerTick) / 1e9 : undefined;
  return { hasAudioTrack, blocks, durationSeconds };
};
