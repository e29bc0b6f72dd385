import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, FeedbackListQuery, FeedbackSend, type FeedbackKind } from '@noted/api';
import type { Database } from '@noted/db';
import { OPERATOR_ROLE, type Identity } from '@noted/kit';
import { feedbackEvents } from '@noted/proto';
import { userErase } from '../deletion/usecases.js';
import { userEnsure, type UsersContext } from '../users/usecases.js';
import {
  feedbackList,
  feedbackScreenshot,
  feedbackSend,
  type FeedbackContext,
} from './usecases.js';
import { openUsersForTest } from '../testing.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const dataUrl = (bytes: Buffer, type = 'image/png') =>
  `data:${type};base64,${bytes.toString('base64')}`;

const failure = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('feedback (users)', () => {
  let db: Database;
  let ctx: UsersContext & FeedbackContext;
  let ada: Identity;
  let operator: Identity;
  const anonymous = (address: string) => ({ identity: undefined, address, userAgent: 'Test/1.0' });
  const signedIn = (identity: Identity, address = '198.51.100.1') => ({
    identity,
    address,
    userAgent: 'Test/1.0',
  });
  const send = (
    body: {
      kind?: FeedbackKind;
      message?: string;
      email?: string;
      page?: string;
      screenshot?: string;
    },
    sender: Parameters<typeof feedbackSend>[2],
  ) =>
    feedbackSend(
      ctx,
      FeedbackSend.parse({ kind: 'idea', message: 'More themes', ...body }),
      sender,
    );
  const list = (identity: Identity | undefined, query: Record<string, unknown> = {}) =>
    feedbackList(ctx, { operator: identity }, FeedbackListQuery.parse(query));
  const listMine = (identity: Identity | undefined, query: Record<string, unknown> = {}) =>
    feedbackList(ctx, { sender: identity }, FeedbackListQuery.parse(query));

  beforeAll(async () => {
    ({ db, ctx } = await openUsersForTest('feedback', {
      feedbackLimits: { perUserPerHour: 3, perIpPerHour: 5 },
      internalSecret: 'a-secret-of-at-least-thirty-two-chars!!',
    }));
    const identityOf = async (authId: string, email: string): Promise<Identity> => {
      const { user } = await userEnsure(ctx, { authId, email, name: authId });
      return { userId: user.id, sub: authId, email, name: authId };
    };
    ada = await identityOf('sub-ada', 'ada@example.com');
    operator = { ...(await identityOf('sub-ops', 'ops@example.com')), roles: [OPERATOR_ROLE] };
  }, 60_000);

  beforeEach(async () => {
    await db.knex('feedback').delete();
  });

  afterAll(async () => {
    await db?.close();
  });

  it('keeps feedback sent signed out with the email given, and only a keyed hash of the address', async () => {
    const row = await send(
      {
        kind: 'problem',
        message: '  The editor froze  ',
        email: 'x@example.com',
        page: '/notes/1',
      },
      anonymous('203.0.113.9'),
    );
    const [stored] = await db.knex('feedback').where({ id: row.id });
    expect(stored).toMatchObject({
      kind: 'problem',
      message: 'The editor froze',
      email: 'x@example.com',
      user_id: null,
      page: '/notes/1',
      user_agent: 'Test/1.0',
    });
    expect(JSON.stringify(stored)).not.toContain('203.0.113.9');
    expect(stored.address_hash).toMatch(/^[\w-]{43}$/);

    const [event] = await db.knex('outbox').where({ subject: feedbackEvents.received.subject });
    expect(feedbackEvents.received.decode(event.payload as Buffer)).toMatchObject({
      feedbackId: row.id,
      kind: 'problem',
      userId: '',
      hasScreenshot: false,
    });
    expect(event.headers ?? {}).toEqual({});
  });

  it("answers a signed-in sender at the account's email, not one typed in, and names them in the event", async () => {
    const row = await send({ email: 'typed@example.com' }, signedIn(ada));
    expect(row).toMatchObject({ user_id: ada.userId, email: 'ada@example.com' });
    const events = await db.knex('outbox').where({ subject: feedbackEvents.received.subject });
    const event = events.find(
      (e) => feedbackEvents.received.decode(e.payload as Buffer).feedbackId === row.id,
    );
    expect(event?.headers).toEqual({ 'noted-user-id': ada.userId });
  });

  it('stores a screenshot by what its bytes are, and refuses bytes that are no image', async () => {
    const row = await send({ screenshot: dataUrl(PNG, 'image/jpeg') }, anonymous('203.0.113.10'));
    const screenshot = await feedbackScreenshot(ctx, { operator }, row.id);
    expect(screenshot.content_type).toBe('image/png');
    expect(Buffer.from(screenshot.bytes).equals(PNG)).toBe(true);

    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('GIF89a....'),
    ]) {
      const refused = await failure(
        send({ screenshot: dataUrl(bytes) }, anonymous('203.0.113.10')),
      );
      expect(refused.code).toBe('NOT_AN_IMAGE');
    }
    expect(await db.knex('feedback')).toHaveLength(1);
  });

  it('refuses the sixth in an hour from one address, signed in or not, with the wait until the oldest leaves', async () => {
    const address = '192.0.2.50';
    for (let i = 0; i < 5; i += 1) await send({}, anonymous(address));
    const refused = await failure(send({}, signedIn(ada, address)));
    expect(refused.code).toBe('RATE_LIMITED');
    const { retryAfterSeconds } = refused.details as { retryAfterSeconds: number };
    expect(retryAfterSeconds).toBeGreaterThan(3500);
    expect(retryAfterSeconds).toBeLessThanOrEqual(3600);
    // Another address is counted apart; an IPv6 address by its /56.
    await send({}, anonymous('192.0.2.51'));
    for (let i = 0; i < 5; i += 1) await send({}, anonymous(`2001:db8:1:2${i}::${i}`));
    expect((await failure(send({}, anonymous('2001:db8:1:ff::1')))).code).toBe('RATE_LIMITED');

    // An hour later the oldest no longer counts.
    await db.knex('feedback').update({ created_at: new Date(Date.now() - 3601_000) });
    await send({}, anonymous(address));
  });

  it('refuses the fourth in an hour from one account, from any address', async () => {
    for (let i = 0; i < 3; i += 1) await send({}, signedIn(ada, `198.51.100.${i + 10}`));
    const refused = await failure(send({}, signedIn(ada, '198.51.100.99')));
    expect(refused).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    expect(refused.message).toMatch(/one account/);
    await send({}, signedIn(operator, '198.51.100.99'));
  });

  it('counts concurrent sends exactly: the limit holds when they race', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => send({}, anonymous('192.0.2.77'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  });

  it('lists feedback newest first, a page at a time, by kind, to operators only', async () => {
    const sent = [];
    for (const kind of ['idea', 'problem', 'praise', 'problem'] as const) {
      sent.push(await send({ kind, message: kind }, anonymous(`192.0.2.${sent.length + 100}`)));
    }
    sent.push(await send({ screenshot: dataUrl(PNG) }, anonymous('192.0.2.120')));
    // One second apart, in the order sent: two sent within a millisecond would tie.
    for (const [i, row] of sent.entries()) {
      await db
        .knex('feedback')
        .where({ id: row.id })
        .update({ created_at: new Date(Date.now() - (sent.length - i) * 1000) });
    }

    expect((await failure(list(ada))).toBody()).toEqual({
      error: { code: 'FORBIDDEN', message: 'Only operators can read feedback' },
    });
    expect((await failure(list(undefined))).code).toBe('FORBIDDEN');
    expect(
      (await failure(feedbackScreenshot(ctx, { operator: ada }, sent[0]?.id ?? ''))).code,
    ).toBe('FORBIDDEN');

    const first = await list(operator, { limit: 2 });
    expect(first.rows.map((r) => r.message)).toEqual(['More themes', 'problem']);
    expect(first.rows[0]?.has_screenshot).toBe(true);
    expect(first.rows[1]?.has_screenshot).toBe(false);
    const second = await list(operator, { limit: 2, cursor: first.nextCursor });
    expect(second.rows.map((r) => r.message)).toEqual(['praise', 'problem']);
    const last = await list(operator, { limit: 2, cursor: second.nextCursor });
    expect(last.rows.map((r) => r.message)).toEqual(['idea']);
    expect(last.nextCursor).toBeNull();

    const problems = await list(operator, { kind: 'problem' });
    expect(problems.rows.map((r) => r.id)).toEqual([sent[3]?.id, sent[1]?.id]);
    expect(() => list(operator, { cursor: 'bm90IGEgY3Vyc29y' })).toThrow(/Not a cursor/);
    // Any place of the cursor's form is served: one after the newest starts at the newest.
    const later = `${Date.now() + 60_000}.00000000-0000-4000-8000-000000000000`;
    expect((await list(operator, { limit: 2, cursor: later })).rows).toEqual(first.rows);
    expect((await failure(feedbackScreenshot(ctx, { operator }, sent[0]?.id ?? ''))).code).toBe(
      'NOT_FOUND',
    );
  });

  it("gives a sender their own feedback and screenshots, never anyone else's", async () => {
    const bo: Identity = { ...ada, userId: '00000000-0000-4000-8000-00000000b0b0', sub: 'sub-bo' };
    const first = await send({ kind: 'problem', message: 'Ada 1' }, signedIn(ada, '192.0.2.50'));
    const shot = await send(
      { message: 'Ada 2', screenshot: dataUrl(PNG) },
      signedIn(ada, '192.0.2.51'),
    );
    const anonymousOne = await send(
      { message: 'Anyone', screenshot: dataUrl(PNG) },
      anonymous('192.0.2.52'),
    );
    await db
      .knex('feedback')
      .where({ id: first.id })
      .update({ created_at: new Date(Date.now() - 5000) });

    const mine = await listMine(ada, { limit: 1 });
    expect(mine.rows.map((r) => r.message)).toEqual(['Ada 2']);
    const rest = await listMine(ada, { limit: 1, cursor: mine.nextCursor });
    expect(rest.rows.map((r) => r.message)).toEqual(['Ada 1']);
    expect(rest.nextCursor).toBeNull();
    expect((await listMine(bo)).rows).toEqual([]);
    expect((await failure(listMine(undefined))).code).toBe('UNAUTHENTICATED');

    const own = await feedbackScreenshot(ctx, { sender: ada }, shot.id);
    expect(Buffer.from(own.bytes).equals(PNG)).toBe(true);
    for (const [reader, id] of [
      [bo, shot.id],
      [ada, anonymousOne.id],
      [ada, first.id],
    ] as const) {
      expect((await failure(feedbackScreenshot(ctx, { sender: reader }, id))).code).toBe(
        'NOT_FOUND',
      );
    }
  });

  it("erases an account's feedback with its account (twice is harmless), and keeps everyone else's", async () => {
    const { user } = await userEnsure(ctx, {
      authId: 'sub-bo',
      email: 'bo@example.com',
      name: 'Bo',
    });
    const bo = { userId: user.id, sub: 'sub-bo', email: 'bo@example.com', name: 'Bo' };
    const mine = await send({ screenshot: dataUrl(PNG) }, signedIn(bo, '192.0.2.200'));
    const theirs = await send({}, anonymous('192.0.2.201'));

    expect(await userErase(ctx, bo.userId)).toMatchObject({ feedback: 1 });
    expect(await userErase(ctx, bo.userId)).toMatchObject({ feedback: 0 });
    expect(await db.knex('feedback').where({ id: mine.id })).toEqual([]);
    expect(await db.knex('feedback_screenshots').where({ feedback_id: mine.id })).toEqual([]);
    expect(await db.knex('feedback').where({ id: theirs.id })).toHaveLength(1);
  });
});
