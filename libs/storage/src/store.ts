import type { Readable } from 'node:stream';

/** The object store port: media of notes, keyed by `<owner>/<...>`. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  size: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
}

/**
 * Where a browser sends one file itself: a form POST of `fields`, then the file as the part
 * `file`, to `url`. The store refuses anything but that key, a size over `maxBytes`, or a POST
 * after `expiresAt`.
 */
export interface UploadTarget {
  url: string;
  fields: Record<string, string>;
}

export interface ObjectStore {
  put(
    key: string,
    body: Buffer | Readable,
    options: { contentType: string; size?: number },
  ): Promise<void>;
  /** Undefined when there is no such object. */
  get(key: string): Promise<StoredObject | undefined>;
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  list(prefix: string): Promise<ObjectInfo[]>;
  /**
   * A signed address for uploading straight into `key`, when browsers can reach the store
   * (S3 with a public endpoint); undefined when they cannot.
   */
  uploadTarget?(key: string, limits: { maxBytes: number; expiresAt: Date }): Promise<UploadTarget>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
