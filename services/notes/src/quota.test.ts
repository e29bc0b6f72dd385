import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@noted/api';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createGrpcServer, type GrpcServer, type ServiceImpl } from '@noted/grpc';
import { CALLER_METADATA, createLogger, verifyCaller } from '@noted/kit';
import { usersV1 } from '@noted/proto';
import { notesMigrations } from './migrations.js';
import type { NotesContext } from './context.js';
import { noteCreate } from './test/validated.js';
import { createQuota, type Quota } from './quota.js';

const secret = randomBytes(32).toString('base64url');
const logger = createLogger({ level: 'silent' });
const PERIOD = '2027-03';

/** A users service on real gRPC that keeps allowances in memory, as the real one answers. */
const startUsers = async (limit: number, failWith?: AppError) => {
  const used = new Map<string, number>();
  const callers: string[] = [];
  const calls: { method: string; request: object }[] = [];
  const unused = () => Promise.reject(new AppError('BAD_REQUEST', 'not used here'));
  const impl: ServiceImpl<typeof usersV1.UsersService> = {
    ensureUser: unused,
    getUserBySub: unused,
    getUser: unused,
    consumeQuota: async (request, { metadata }) => {
      callers.push(await verifyCaller(secret, metadata.get(CALLER_METADATA)[0]?.toString()));
      calls.push({ method: 'consume', request });
      if (failWith) throw failWith;
      const now = used.get(request.userId) ?? 0;
      if (now + request.amount > limit) {
        throw new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month');
      }
      used.set(request.userId, now + request.amount);
      return { used: now + request.amount, limit: BigInt(limit), period: PERIOD };
    },
    releaseQuota: async (request) => {
      calls.push({ method: 'release', request });
      const now = Math.max(0, (used.get(request.userId) ?? 0) - request.amount);
      used.set(request.userId, now);
      return { used: now };
    },
  };
  const server: GrpcServer = createGrpcServer({ service: 'users', logger });
  server.add(usersV1.UsersService, impl);
  const { port } = await server.listen('127.0.0.1:0');
  return { address: `127.0.0.1:${port}`, server, used, callers, calls };
};

describe('quota client', () => {
  let users: Awaited<ReturnType<typeof startUsers>>;
  let quota: Quota;

  beforeAll(async () => {
    users = await startUsers(2);
    quota = createQuota({ address: users.address, internalSecret: secret, logger });
  });

  afterAll(async () => {
    quota?.close();
    await users?.server.stop();
  });

  it('consumes as the notes service and gives back once, for the period consumed', async () => {
    const userId = randomUUID();
    const release = await quota.consume(userId, 'notes_per_month');
    expect(users.callers).toContain('notes');
    expect(users.used.get(userId)).toBe(1);
    await release();
    await release();
    expect(users.used.get(userId)).toBe(0);
    expect(users.calls.filter((c) => JSON.stringify(c.request).includes(userId))).toMatchObject([
      { method: 'consume', request: { userId, feature: 'notes_per_month', amount: 1 } },
      {
        method: 'release',
        request: { userId, feature: 'notes_per_month', amount: 1, period: PERIOD },
      },
    ]);
  });

  it("carries the users service's over-quota error", async () => {
    const userId = randomUUID();
    await quota.consume(userId, 'notes_per_month');
    await quota.consume(userId, 'notes_per_month');
    const refused = quota.consume(userId, 'notes_per_month');
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
      message: 'Notes left not enough this month',
    });
  });

  it('takes the units of one user asked for together with one call', async () => {
    const roomy = await startUsers(10);
    const client = createQuota({ address: roomy.address, internalSecret: secret, logger });
    try {
      const userId = randomUUID();
      const releases = await Promise.all(
        Array.from({ length: 5 }, () => client.consume(userId, 'notes_per_month')),
      );
      expect(roomy.calls).toEqual([
        { method: 'consume', request: expect.objectContaining({ userId, amount: 5 }) },
      ]);
      expect(roomy.used.get(userId)).toBe(5);
      await releases[0]?.();
      expect(roomy.used.get(userId)).toBe(4);
    } finally {
      client.close();
      await roomy.server.stop();
    }
  });

  it('hands out exactly the units left when not all asked for together fit', async () => {
    const userId = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => quota.consume(userId, 'notes_per_month')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'NOTES_LEFT_NOT_ENOUGH' });
    expect(users.used.get(userId)).toBe(2);
  });

  it('gives every asker of a failed call its error, without asking again', async () => {
    const broken = await startUsers(10, new AppError('INTERNAL', 'Something went wrong'));
    const client = createQuota({ address: broken.address, internalSecret: secret, logger });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 3 }, () => client.consume(randomUUID(), 'notes_per_month')),
      );
      const userId = randomUUID();
      const together = await Promise.allSettled(
        Array.from({ length: 3 }, () => client.consume(userId, 'notes_per_month')),
      );
      for (const r of [...results, ...together]) {
        expect(r).toMatchObject({ status: 'rejected', reason: { code: 'INTERNAL' } });
      }
      expect(broken.calls).toHaveLength(4);
    } finally {
      client.close();
      await broken.server.stop();
    }
  });

  it('logs instead of throwing when it cannot give a unit back', async () => {
    const other = await startUsers(5);
    const errors = vi.spyOn(logger, 'error');
    const client = createQuota({ address: other.address, internalSecret: secret, logger });
    try {
      const release = await client.consume(randomUUID(), 'notes_per_month');
      await other.server.stop();
      await expect(release()).resolves.toBeUndefined();
      expect(errors).toHaveBeenCalledWith(
        expect.objectContaining({ feature: 'notes_per_month', period: PERIOD }),
        'could not give back a consumed quota unit',
      );
    } finally {
      errors.mockRestore();
      client.close();
    }
  });
});

describe('noteCreate and the quota', () => {
  let db: Database;
  let users: Awaited<ReturnType<typeof startUsers>>;
  let ctx: NotesContext;

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-notes-quota-')),
      schema: 'notes',
      migrations: notesMigrations,
      logger,
    });
    await db.migrate();
    users = await startUsers(1);
    ctx = {
      knex: db.knex,
      unitOfWork: createUnitOfWork(db.knex, () => {}),
      quota: createQuota({ address: users.address, internalSecret: secret, logger }),
    };
  }, 60_000);

  afterEach(() => {
    users.used.clear();
  });

  afterAll(async () => {
    ctx?.quota.close();
    await users?.server.stop();
    await db?.close();
  });

  it('stores nothing when no notes are left', async () => {
    const userId = randomUUID();
    await noteCreate(ctx, userId, { title: 'first' });
    await expect(noteCreate(ctx, userId, { title: 'second' })).rejects.toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
    });
    expect(await db.knex('notes').where({ user_id: userId }).pluck('title')).toEqual(['first']);
  });

  it('gives the unit back when the note cannot be stored', async () => {
    await expect(noteCreate(ctx, 'not-a-uuid', { title: 'doomed' })).rejects.toThrow();
    expect(users.used.get('not-a-uuid')).toBe(0);
  });

  it('takes nothing for invalid input', async () => {
    const userId = randomUUID();
    await expect(noteCreate(ctx, userId, { title: '' })).rejects.toThrow();
    expect(users.used.get(userId)).toBeUndefined();
  });
});
