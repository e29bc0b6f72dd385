import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, UploadRequest } from '@noted/api';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { createFsStore, type ObjectStore } from '@noted/storage';
import type { ImagesContext } from '../context.js';
import { notesMigrations } from '../migrations.js';
import { uploadCreate, uploadReceive, uploadsSweep } from './uploads.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-uploads-'));
let db: Database;
let objects: ObjectStore;
let ctx: ImagesContext;

beforeAll(async () => {
  const logger = createLogger({ level: 'silent' });
  db = await openDatabase({ dataDir, schema: 'notes', migrations: notesMigrations, logger });
  await db.migrate();
  objects = createFsStore({ root: path.join(dataDir, 'objects') });
  // Addresses and the sweep touch neither quotas nor events.
  ctx = { knex: db.knex, objects, logger } as unknown as ImagesContext;
});

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const create = (userId: string, input: unknown) =>
  uploadCreate(ctx, userId, UploadRequest.parse(input));
const tokenOf = (url: string) => url.split('/').pop()!;
const receiveBytes = (text: string) => () =>
  Promise.resolve({ data: Buffer.from(text), fileName: 'x' });

describe('upload addresses', () => {
  it('hands out an address of this server for the size announced, for a quarter of an hour', async () => {
    const before = Date.now();
    const target = await create(randomUUID(), { kind: 'audio', name: 'a.mp3', bytes: 1234 });
    expect(target.url).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{43}$/);
    expect(target.maxBytes).toBe(1234);
    const ttl = Date.parse(target.expiresAt) - before;
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 1000);
  });

  it('refuses a PDF over 20 MB before any byte is sent', () => {
    const parsed = UploadRequest.safeParse({
      kind: 'pdf',
      name: 'a.pdf',
      bytes: 20 * 1024 * 1024 + 1,
    });
    expect(parsed.error?.issues[0]?.message).toBe('A PDF is at most 20 MB');
    expect(
      UploadRequest.safeParse({ kind: 'audio', name: 'a.mp3', bytes: 20 * 1024 * 1024 + 1 })
        .success,
    ).toBe(true);
  });

  it('keeps a file sent to its address under the owner, and refuses an unknown or expired one', async () => {
    const userId = randomUUID();
    const target = await create(userId, { kind: 'pdf', name: 'a.pdf', bytes: 5 });
    let limits: unknown;
    await uploadReceive(ctx, tokenOf(target.url), (given) => {
      limits = given;
      return receiveBytes('%PDF-')();
    });
    expect(limits).toEqual({ kind: 'pdf', maxBytes: 5 });
    expect(await objects.stat(`${userId}/uploads/${target.uploadId}`)).toMatchObject({ size: 5 });

    const unknown = uploadReceive(ctx, 'A'.repeat(43), receiveBytes('x'));
    await expect(unknown).rejects.toBeInstanceOf(AppError);
    await expect(unknown).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await db
      .knex('capture_uploads')
      .where({ id: target.uploadId })
      .update({
        expires_at: new Date(Date.now() - 1000),
      });
    await expect(
      uploadReceive(ctx, tokenOf(target.url), receiveBytes('%PDF-')),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('sweeps uploads an hour past their expiry, file and record, and leaves the others', async () => {
    const userId = randomUUID();
    const stale = await Promise.all(
      [1, 2, 3].map(() => create(userId, { kind: 'audio', name: 'a.wav', bytes: 3 })),
    );
    const fresh = await create(userId, { kind: 'audio', name: 'b.wav', bytes: 3 });
    for (const target of [...stale, fresh]) {
      await uploadReceive(ctx, tokenOf(target.url), receiveBytes('abc'));
    }
    await db
      .knex('capture_uploads')
      .whereIn(
        'id',
        stale.map((target) => target.uploadId),
      )
      .update({ expires_at: new Date(Date.now() - 61 * 60_000) });

    expect(await uploadsSweep(ctx, { batch: 2 })).toBe(3);
    const left = await objects.list(`${userId}/uploads/`);
    expect(left.map((item) => item.key)).toEqual([`${userId}/uploads/${fresh.uploadId}`]);
    expect(await db.knex('capture_uploads').where({ user_id: userId }).pluck('id')).toEqual([
      fresh.uploadId,
    ]);
    expect(await uploadsSweep(ctx)).toBe(0);
  });
});
