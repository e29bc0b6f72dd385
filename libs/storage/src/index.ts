export type { ObjectInfo, ObjectStore, StoredObject, UploadTarget } from './store.js';
export { createFsStore, type FsStoreOptions } from './fs.js';
export { createS3Store, type S3StoreOptions } from './s3.js';
export { openObjectStore } from './open.js';
export { assertKey, assertPrefix } from './keys.js';
