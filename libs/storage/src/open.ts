import { createFsStore } from './fs.js';
import { createS3Store, type S3StoreOptions } from './s3.js';
import type { ObjectStore } from './store.js';

/** S3 when `s3` is configured, else files under `root`. */
export const openObjectStore = async (config: {
  root: string;
  s3?: S3StoreOptions;
}): Promise<ObjectStore> =>
  config.s3 ? createS3Store(config.s3) : createFsStore({ root: config.root });
