/** Small helpers of the capture feature that need nothing from @noted/api at run time. */

/** An http or https address, as the server takes one (at most 2,048 characters). */
export const isWebAddress = (text: string): boolean => {
  const value = text.trim();
  if (!value || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const byteFormats = new Map<string, Intl.NumberFormat>();

/** A size as people read one: "820 kB", "2.4 MB", in the page's language. */
export const formatBytes = (bytes: number, locale: string): string => {
  // Under a kilobyte too, in kB: Intl's short "byte" reads "1,019 byte" in English.
  const [value, unit] =
    bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'megabyte'] : [bytes / 1024, 'kilobyte'];
  const key = `${locale}:${unit}`;
  let format = byteFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: unit === 'megabyte' || bytes < 10 * 1024 ? 1 : 0,
    });
    byteFormats.set(key, format);
  }
  return format.format(value);
};

/** Seconds as a clock shows them: 0:05, 12:30, 1:00:00. */
export const formatDuration = (totalSeconds: number): string => {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
};

/** The extension the server knows a recording by, from the recorder's media type. */
export const recordingExtension = (mimeType: string): string => {
  const type = mimeType.toLowerCase();
  if (type.includes('ogg')) return 'ogg';
  if (type.includes('mp4') || type.includes('aac') || type.includes('m4a')) return 'm4a';
  if (type.includes('mpeg') || type.includes('mp3')) return 'mp3';
  if (type.includes('wav')) return 'wav';
  return 'webm';
};
