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
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
