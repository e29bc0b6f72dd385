/**
 * File names that every OS takes, and the `Content-Disposition` that names a download: one
 * place for both, so a note's title becomes the same name in a single export and in a zip.
 */

/** Bytes a name may take before its suffix and extension (255 is the limit on ext4, APFS, NTFS). */
const MAX_NAME_BYTES = 120;

/** Characters Windows refuses in a name (and `/`, which no OS takes), and C0/C1 controls. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/g;
/** Invisible characters that can disguise a name (bidi overrides, zero widths, BOM). */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** Names Windows keeps for devices, with or without an extension, in any case. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character or an emoji. */
const cutToBytes = (text: string, maxBytes: number): string => {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > maxBytes) break;
    cut += segment;
  }
  return cut;
};

/**
 * A file name (without extension) from a note's title that Windows, macOS and Linux all take:
 * no reserved characters or device names, no leading dot or trailing dot or space, at most
 * 120 bytes, never empty ('Untitled').
 */
export const safeBaseName = (title: string, fallback = 'Untitled'): string => {
  const cleaned = title
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(/\s+/g, ' ')
    .replace(FORBIDDEN, '-')
    .trim();
  const cut = cutToBytes(cleaned, MAX_NAME_BYTES)
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (!cut) return fallback;
  // `CON`, `con.md` and `Con.tar.gz` all name the console on Windows.
  const stem = cut.split('.')[0] ?? '';
  return WINDOWS_RESERVED.test(stem.trim()) ? `${cut}_` : cut;
};

/**
 * Gives each name once within one folder: `Note.md`, `Note (2).md`, `note (3).md`, compared
 * without case (Windows and macOS folders do not tell `Note` from `note`).
 */
export const uniqueNames = () => {
  const taken = new Set<string>();
  /** Where to go on counting for each name: ten thousand notes may share a title. */
  const next = new Map<string, number>();
  const keyOf = (name: string) => name.normalize('NFC').toLowerCase();
  return (base: string, extension: string): string => {
    const wanted = keyOf(`${base}${extension}`);
    for (let n = next.get(wanted) ?? 1; ; n += 1) {
      const name = n === 1 ? `${base}${extension}` : `${base} (${n})${extension}`;
      const key = keyOf(name);
      if (!taken.has(key)) {
        taken.add(key);
        next.set(wanted, n + 1);
        return name;
      }
    }
  };
};

/** RFC 5987 `ext-value` characters: what `encodeURIComponent` leaves, less `'()*`. */
const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the UTF-8 name for every current
 * browser, and an ASCII stand-in for anything older.
 */
export const contentDisposition = (fileName: string): string => {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
};
