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
import { createQuota, type Quota, type QuotaCharges } from './quota.js';
import { quotaSweep } from './quota-sweep.js';

const secret = randomBytes(32).toString('base64url');
const logger = createLogger({ level: 'silent' });
const PERIOD = '2027-03';

/**
 * A users service on real gRPC that keeps allowances in memory, as the real one answers: a
 * charge is keyed by its note id (charged once), pending until settled or released.
 */
const startUsers = async (limit: number, failWith?: AppError) => {
  const used = new Map<string, number>();
  const charges = new Map<string, { userId: string; state: string; at: number }>();
  const callers: string[] = [];
  const calls: { method: string; request: object }[] = [];
  const unused = () => Promise.reject(new AppError('BAD_REQUEST', 'not used here'));
  const add = (userId: string, amount: number) =>
    used.set(userId, Math.max(0, (used.get(userId) ?? 0) + amount));
  const impl: ServiceImpl<typeof usersV1.UsersService> = {
    ensureUser: unused,
    getUserBySub: unused,
    getUser: unused,
    consumeQuota: async (request, { metadata }) => {
      callers.push(await verifyCaller(secret, metadata.get(CALLER_METADATA)[0]?.toString()));
      calls.push({ method: 'consume', request });
      if (failWith) throw failWith;
      const fresh = [...new Set(request.refs)].filter((ref) =>
        ['released', undefined].includes(charges.get(ref)?.state),
      );
      const now = used.get(request.userId) ?? 0;
      if (now + fresh.length > limit) {
        throw new AppError('NOTES_LEFT_NOT_ENOUGH', 'Notes left not enough this month');
      }
      for (const ref of fresh) {
        charges.set(ref, { userId: request.userId, state: 'pending', at: Date.now() });
      }
      add(request.userId, fresh.length);
      return {
        used: now + fresh.length,
        limit: BigInt(limit),
        period: PERIOD,
        charged: fresh.length,
      };
    },
    releaseQuota: async (request) => {
      calls.push({ method: 'release', request });
      const pending = request.refs.filter((ref) => charges.get(ref)?.state === 'pending');
      for (const ref of pending) charges.get(ref)!.state = 'released';
      add(request.userId, -pending.length);
      return { used: used.get(request.userId) ?? 0, released: pending.length };
    },
    settleQuota: async (request) => {
      calls.push({ method: 'settle', request });
      let settled = 0;
      let recharged = 0;
      for (const ref of request.refs) {
        const charge = charges.get(ref);
        if (charge?.state === 'released') recharged += 1;
        if (charge && charge.state !== 'settled') {
          charge.state = 'settled';
          settled += 1;
        }
      }
      add(request.userId, recharged);
      return { settled, recharged };
    },
    listPendingQuota: async (request) => ({
      pending: [...charges]
        .filter(
          ([, charge]) =>
            charge.state === 'pending' && Date.now() - charge.at >= request.olderThanSeconds * 1000,
        )
        .map(([ref, charge]) => ({ userId: charge.userId, ref, period: PERIOD })),
    }),
  };
  const server: GrpcServer = createGrpcServer({ service: 'users', logger });
  server.add(usersV1.UsersService, impl);
  const { port } = await server.listen('127.0.0.1:0');
  return { address: `127.0.0.1:${port}`, server, used, charges, callers, calls };
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
    const noteId = randomUUID();
    const release = await quota.consume(userId, 'notes_per_month', noteId);
    expect(users.callers).toContain('notes');
    expect(users.used.get(userId)).toBe(1);
    // Asked again for the same note (a retry), nothing more is charged.
    await quota.consume(userId, 'notes_per_month', noteId);
    expect(users.used.get(userId)).toBe(1);
    await release();
    await release();
    expect(users.used.get(userId)).toBe(0);
    expect(users.calls.filter((c) => JSON.stringify(c.request).includes(userId))).toMatchObject([
      { method: 'consume', request: { userId, feature: 'notes_per_month', refs: [noteId] } },
      { method: 'consume', request: { userId, feature: 'notes_per_month', refs: [noteId] } },
      {
        method: 'release',
        request: { userId, feature: 'notes_per_month', refs: [noteId], period: PERIOD },
      },
    ]);
  });

  it("carries the users service's over-quota error", async () => {
    const userId = randomUUID();
    await quota.consume(userId, 'notes_per_month', randomUUID());
    await quota.consume(userId, 'notes_per_month', randomUUID());
    const refused = quota.consume(userId, 'notes_per_month', randomUUID());
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
        Array.from({ length: 5 }, () => client.consume(userId, 'notes_per_month', randomUUID())),
      );
      expect(roomy.calls).toEqual([
        {
          method: 'consume',
          request: expect.objectContaining({ userId, refs: expect.arrayContaining([]) }),
        },
      ]);
      expect((roomy.calls[0]?.request as { refs: string[] }).refs).toHaveLength(5);
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
      Array.from({ length: 5 }, () => quota.consume(userId, 'notes_per_month', randomUUID())),
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
        Array.from({ length: 3 }, () =>
          client.consume(randomUUID(), 'notes_per_month', randomUUID()),
        ),
      );
      const userId = randomUUID();
      const together = await Promise.allSettled(
        Array.from({ length: 3 }, () => client.consume(userId, 'notes_per_month', randomUUID())),
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
      const release = await client.consume(randomUUID(), 'notes_per_month', randomUUID());
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
  let quota: Quota & QuotaCharges;

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-notes-quota-')),
      schema: 'notes',
      migrations: notesMigrations,
      logger,
    });
    await db.migrate();
    users = await startUsers(1);
    quota = createQuota({ address: users.address, internalSecret: secret, logger });
    ctx = { knex: db.knex, unitOfWork: createUnitOfWork(db.knex, () => {}), quota };
  }, 60_000);

  afterEach(() => {
    users.used.clear();
    users.charges.clear();
    users.calls.length = 0;
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

  /** The notes service dying in the middle of a create: after its unit, before its commit. */
  const dying = (): NotesContext => {
    const died = new Error('the process died');
    return {
      ...ctx,
      unitOfWork: Object.assign(
        async () => {
          throw died;
        },
        {
          statement: async () => {
            throw died;
          },
        },
      ),
      // Dead, it never gives the unit back.
      quota: {
        ...quota,
        consume: async (userId, feature, noteId) => {
          await quota.consume(userId, feature, noteId);
          return async () => {};
        },
      },
    };
  };
  const sweep = (olderThanSeconds = 0) =>
    quotaSweep({ knex: db.knex, quota }, { olderThanSeconds });

  it('leaves exact, once swept, the unit of a create that died between taking it and committing', async () => {
    const lost = randomUUID();
    await expect(noteCreate(dying(), lost, { title: 'lost' })).rejects.toThrow('the process died');
    // Pending, it counts as used: the month's count never shows a unit free that is not.
    expect(users.used.get(lost)).toBe(1);
    expect(users.calls.map((call) => call.method)).toEqual(['consume']);

    // A create that committed, whose note.created has not settled it (late, or lost).
    const kept = randomUUID();
    const made = await noteCreate(ctx, kept, { title: 'kept' });

    expect(await sweep(600)).toEqual({ settled: 0, released: 0 });
    expect(await sweep()).toEqual({ settled: 1, released: 1 });
    expect(users.used.get(lost)).toBe(0);
    expect(users.used.get(kept)).toBe(1);
    expect(users.charges.get(made.id)?.state).toBe('settled');
    expect(await sweep()).toEqual({ settled: 0, released: 0 });
    // The unit given back is there to take again.
    await noteCreate(ctx, lost, { title: 'lost, written again' });
    expect(users.used.get(lost)).toBe(1);
  });

  it('charges once a create with its id retried after it died', async () => {
    const userId = randomUUID();
    const id = randomUUID();
    await expect(noteCreate(dying(), userId, { id, title: 'offline' })).rejects.toThrow();
    const made = await noteCreate(ctx, userId, { id, title: 'offline' });
    expect(made.id).toBe(id);
    expect(users.used.get(userId)).toBe(1);
    expect(await sweep()).toEqual({ settled: 1, released: 0 });
    expect(users.used.get(userId)).toBe(1);
  });

  it('charges once two creates of one id sent at once, and the one that lost gives nothing back', async () => {
    const userId = randomUUID();
    const id = randomUUID();
    const both = await Promise.all([
      noteCreate(ctx, userId, { id, title: 'twice' }),
      noteCreate(ctx, userId, { id, title: 'twice' }),
    ]);
    expect(both.map((note) => note.id)).toEqual([id, id]);
    expect(await db.knex('notes').where({ user_id: userId }).pluck('id')).toEqual([id]);
    // Both asked for the unit before either note was there: one was charged.
    expect(
      users.calls
        .filter((call) => call.method === 'consume')
        .flatMap((call) => (call.request as { refs: string[] }).refs),
    ).toEqual([id, id]);
    expect(users.used.get(userId)).toBe(1);
    expect(users.calls.filter((call) => call.method === 'release')).toEqual([]);
  });
});
