import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, ReviewDueList, ReviewSchedule, User } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

const DAY = 86_400_000;

describe(`spaced-repetition review (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const create = async (token: string, title: string) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', { title }));
  const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('reschedules a reviewed note by SM-2 and keeps another user out', async () => {
    const note = await create(ada, 'Capitals');
    const before = Date.now();
    const remembered = await app.api(ada, 'POST', '/api/note/review', {
      noteId: note.id,
      outcome: 'remembered',
    });
    expect(remembered.status).toBe(200);
    const schedule = (await remembered.json()) as ReviewSchedule;
    expect(schedule).toMatchObject({ noteId: note.id, intervalDays: 1, repetitions: 1, ease: 2.5 });
    expect(Date.parse(schedule.dueAt)).toBeGreaterThanOrEqual(before + DAY - 1000);

    const again = await json<ReviewSchedule>(
      app.api(ada, 'POST', '/api/note/review', { noteId: note.id, outcome: 'remembered' }),
    );
    expect(again).toMatchObject({ intervalDays: 6, repetitions: 2 });
    const forgot = await json<ReviewSchedule>(
      app.api(ada, 'POST', '/api/note/review', { noteId: note.id, outcome: 'forgot' }),
    );
    expect(forgot).toMatchObject({ intervalDays: 1, repetitions: 0, ease: 1.96 });

    const stranger = await app.api(bob, 'POST', '/api/note/review', {
      noteId: note.id,
      outcome: 'forgot',
    });
    expect(stranger.status).toBe(404);
    expect((await errorOf(stranger)).code).toBe('NOT_FOUND');
    const unchanged = await json<ReviewSchedule>(
      app.api(ada, 'POST', '/api/note/review', { noteId: note.id, grade: 4 }),
    );
    expect(unchanged).toMatchObject({ intervalDays: 1, repetitions: 1 });

    const invalid = await app.api(ada, 'POST', '/api/note/review', {
      noteId: note.id,
      outcome: 'maybe',
    });
    expect(invalid.status).toBe(400);
    expect((await errorOf(invalid)).code).toBe('VALIDATION_FAILED');
  });

  it('lists due notes at both paths, only for the caller', async () => {
    await create(ada, 'Fresh');
    const due = await app.api(ada, 'GET', '/api/notes/review?limit=5');
    expect(due.status).toBe(200);
    // A note created now falls due tomorrow, so nothing is due yet.
    expect(await due.json()).toEqual({ items: [], total: 0, page: 1, limit: 5 });

    const me = await json<User>(app.api(ada, 'GET', '/user'));
    const own = await app.api(ada, 'GET', `/api/notes-review/${me.userId}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as ReviewDueList).items).toEqual([]);
    const other = await app.api(bob, 'GET', `/api/notes-review/${me.userId}`);
    expect(other.status).toBe(404);
    expect((await errorOf(other)).code).toBe('NOT_FOUND');
    expect((await app.api(undefined, 'GET', '/api/notes/review')).status).toBe(401);
  });

  it('describes the review paths in the OpenAPI document', async () => {
    const doc = await json<{ paths: Record<string, unknown> }>(
      app.api(undefined, 'GET', '/api/openapi.json'),
    );
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/notes/review',
        '/api/notes-review/{userId}',
        '/api/note/review',
      ]),
    );
  });
});
