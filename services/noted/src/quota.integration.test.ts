import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerMetadata } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { usersV1 } from '@noted/proto';
import type { Note, NotePage, User, UserUsage } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`the monthly note quota across a crash (${infraLabel})`, () => {
  let app: TestApp;
  let users: ReturnType<typeof createGrpcClient<typeof usersV1.UsersService>>;

  beforeAll(async () => {
    app = await getTestApp({
      env: {
        FREE_NOTES_PER_MONTH: '3',
        // A charge left pending for two seconds is looked into, five times a second.
        NOTES_QUOTA_SWEEP_AFTER_SECONDS: '2',
        NOTES_QUOTA_SWEEP_INTERVAL_SECONDS: '0.2',
      },
    });
    users = createGrpcClient(usersV1.UsersService, app.noted.endpoints.users?.grpc ?? '', {
      service: 'test',
      metadata: callerMetadata(app.noted.context.shared.internalSecret, 'notes'),
    });
  }, 120_000);

  afterAll(async () => {
    users?.close();
    await app?.stop();
  });

  const usedOf = async (token: string) =>
    (await json<UserUsage>(app.api(token, 'GET', '/user/usage'))).notes.used;

  /** Waits until the month's count is `used` (settlement and the sweep take a moment). */
  const settlesAt = async (token: string, used: number) => {
    let now = await usedOf(token);
    for (let waited = 0; now !== used && waited < 15_000; waited += 100) {
      await sleep(100);
      now = await usedOf(token);
    }
    return now;
  };

  it('gives back the unit of a create that died between taking it and committing, and counts it meanwhile', async () => {
    const token = await app.tokenFor(`quota-crash-${randomUUID()}@example.com`);
    const { userId } = await json<User>(app.api(token, 'GET', '/user'));
    // What the notes service does before its transaction, then dies: the unit of a note that
    // will never be.
    const died = randomUUID();
    const asked = await Promise.all(
      Array.from({ length: 10 }, () =>
        users.consumeQuota({ userId, feature: 'notes_per_month', refs: [died] }),
      ),
    );
    // Asked for ten times at once (retries), charged once.
    expect(asked.reduce((sum, answer) => sum + answer.charged, 0)).toBe(1);
    expect(await usedOf(token)).toBe(1);
    expect(await settlesAt(token, 0)).toBe(0);

    // Two creates of one planned id at once (an import or a device retrying), then three more
    // at once for the two notes left: exactly the notes made are counted.
    const id = randomUUID();
    const twice = await Promise.all(
      [1, 2].map(() => app.api(token, 'POST', '/api/note/create/direct', { id, title: 'planned' })),
    );
    expect(twice.map((response) => response.status)).toEqual([201, 201]);
    const more = await Promise.all(
      [1, 2, 3].map((n) => app.api(token, 'POST', '/api/note/create/direct', { title: `${n}` })),
    );
    expect(more.map((response) => response.status).sort()).toEqual([201, 201, 403]);
    const notes = await json<NotePage>(app.api(token, 'GET', '/api/notes?limit=10'));
    expect(notes.total).toBe(3);
    expect(notes.items.map((note: Note) => note.id)).toContain(id);
    // Past the sweep's two seconds, settled by their note.created: still three.
    await sleep(2500);
    expect(await settlesAt(token, 3)).toBe(3);
  });
});
