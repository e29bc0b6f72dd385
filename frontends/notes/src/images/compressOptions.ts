import type { Options } from 'browser-image-compression';

/** What an upload is reduced to before it leaves the browser; the server keeps 1920 px anyway. */
export const COMPRESSION_OPTIONS: Options = { maxSizeMB: 1, maxWidthOrHeight: 1920 };

/** A message from the compression worker. */
export type CompressionReply = { ok: true; blob: Blob } | { ok: false; message: string };
