import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, S3Error } from 'minio';
import { assertKey, assertPrefix } from './keys.js';
import type { ObjectInfo, ObjectStore, StoredObject } from './store.js';

export interface S3StoreOptions {
  /** `http://host:port`, `https://host`, or `host[:port]`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Defaults to the endpoint's scheme (https when none is given). */
  useSSL?: boolean;
  /**
   * The endpoint as browsers reach it (`https://media.example.com`), for signed uploads straight
   * into the bucket; unset, browsers upload through the service.
   */
  publicEndpoint?: string;
}

const defaultContentType = 'application/octet-stream';
const statConcurrency = 8;

const isNotFound = (error: unknown) =>
  error instanceof S3Error && (error.code === 'NotFound' || error.code === 'NoSuchKey');

const parseEndpoint = (endpoint: string, useSSL: boolean | undefined) => {
  const url = new URL(
    endpoint.includes('://') ? endpoint : `${useSSL === false ? 'http' : 'https'}://${endpoint}`,
  );
  const secure = useSSL ?? url.protocol === 'https:';
  return {
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    useSSL: secure,
  };
};

const partSize = 16 * 1024 * 1024;

/**
 * A stream of unknown size up to one part is read into memory and sent in one PUT; a longer
 * one goes as a multipart upload of 16 MiB parts. Chunks become Buffers (strings included).
 */
const prepareStream = async (body: Readable): Promise<Buffer | Readable> => {
  const iterator = body[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let length = 0;
  while (length <= partSize) {
    const next = (await iterator.next()) as IteratorResult<Buffer | string>;
    if (next.done) return Buffer.concat(head, length);
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    head.push(chunk);
    length += chunk.length;
  }
  const rest = new PassThrough();
  pipeline(
    (async function* () {
      yield* head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as string);
      }
    })(),
    rest,
  ).catch(() => undefined);
  return rest;
};

const contentTypeOf = (metaData: Record<string, unknown>): string => {
  const value = metaData['content-type'] ?? metaData['Content-Type'];
  return typeof value === 'string' && value !== '' ? value : defaultContentType;
};

/** Objects in an S3 bucket (MinIO or any S3) through the minio client; the bucket is created if missing. */
export const createS3Store = async (options: S3StoreOptions): Promise<ObjectStore> => {
  const { bucket } = options;
  const client = new Client({
    ...parseEndpoint(options.endpoint, options.useSSL),
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    pathStyle: true,
    partSize,
    ...(options.region ? { region: options.region } : {}),
  });
  if (!(await client.bucketExists(bucket))) {
    try {
      await client.makeBucket(bucket, options.region ?? '');
    } catch (error) {
      // Another replica may have created it in the meantime.
      if (!(error instanceof S3Error && error.code === 'BucketAlreadyOwnedByYou')) throw error;
    }
  }

  // Signing needs no request; the region is given so the client does not ask the server for it.
  const publicClient = options.publicEndpoint
    ? new Client({
        ...parseEndpoint(options.publicEndpoint, undefined),
        accessKey: options.accessKey,
        secretKey: options.secretKey,
        pathStyle: true,
        region: options.region ?? 'us-east-1',
      })
    : undefined;

  const info = async (key: string): Promise<ObjectInfo | undefined> => {
    try {
      const stat = await client.statObject(bucket, key);
      return { key, size: stat.size, contentType: contentTypeOf(stat.metaData) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };

  return {
    async put(
      key: string,
      body: Buffer | Readable,
      putOptions: { contentType: string; size?: number },
    ) {
      assertKey(key);
      const payload = Buffer.isBuffer(body) ? body : await prepareStream(body);
      const size = Buffer.isBuffer(payload) ? payload.length : putOptions.size;
      const upload = client.putObject(bucket, key, payload, size, {
        'Content-Type': putOptions.contentType,
      });
      if (Buffer.isBuffer(payload)) {
        await upload;
        return;
      }
      // The client does not notice a source stream failing midway; stop waiting when it does.
      let onError: (error: Error) => void = () => undefined;
      const failed = new Promise<never>((_, reject) => {
        onError = reject;
        payload.once('error', onError);
      });
      try {
        await Promise.race([upload, failed]);
      } finally {
        payload.off('error', onError);
      }
    },

    async get(key: string): Promise<StoredObject | undefined> {
      assertKey(key);
      const found = await info(key);
      if (!found) return undefined;
      try {
        const body = await client.getObject(bucket, key);
        return { body, contentType: found.contentType, size: found.size };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async stat(key: string) {
      assertKey(key);
      return info(key);
    },

    async delete(key: string) {
      assertKey(key);
      await client.removeObject(bucket, key);
    },

    async list(prefix: string) {
      assertPrefix(prefix);
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        if (item.name) keys.push(item.name);
      }
      // Listings carry no content type: stat each object, a few at a time.
      const found: (ObjectInfo | undefined)[] = [];
      for (let i = 0; i < keys.length; i += statConcurrency) {
        found.push(
          ...(await Promise.all(keys.slice(i, i + statConcurrency).map((key) => info(key)))),
        );
      }
      return found
        .filter((item): item is ObjectInfo => item !== undefined)
        .sort((a, b) => (a.key < b.key ? -1 : 1));
    },

    ...(publicClient
      ? {
          async uploadTarget(key: string, limits: { maxBytes: number; expiresAt: Date }) {
            assertKey(key);
            const policy = publicClient.newPostPolicy();
            policy.setBucket(bucket);
            policy.setKey(key);
            policy.setExpires(limits.expiresAt);
            policy.setContentLengthRange(1, limits.maxBytes);
            const signed = await publicClient.presignedPostPolicy(policy);
            const fields = Object.entries(signed.formData as Record<string, unknown>).map(
              ([name, value]) => [name, String(value)],
            );
            return { url: signed.postURL, fields: Object.fromEntries(fields) };
          },
        }
      : {}),

    async healthy() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      try {
        return await Promise.race([client.bucketExists(bucket), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },

    async close() {},
  };
};
