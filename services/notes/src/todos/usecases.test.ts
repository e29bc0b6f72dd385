import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnitOfWork, openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { noteEvents } from '@noted/proto';
import { notesMigrations } from '../migrations.js';
import type { NotesContext } from '../context.js';
import { todoSet, todosRecent } from '../test/validated.js';

const logger = createLogger({ level: 'silent' });

describe('todos use-cases', () => {
  let db: Database;
  let ctx: NotesContext;
  let kicks = 0;

  /** Notes written straight to the table, one minute apart in the order given. */
  const seed = async (userId: string, notes: { title: string; body: string }[]) => {
    const start = Date.UTC(2027, 0, 1);
    const ids: string[] = [];
    for (const [i, note] of notes.entries()) {
      const id = randomUUID();
      const at = new Date(start + i * 60_000);
      await db.knex('notes').insert({ id, user_id: userId, ...note, updated_at: at });
      ids.push(id);
    }
    return ids;
  };

  const eventsFor = async (noteId: string) =>
    (
      await db
        .knex('outbox')
        .where({ subject: noteEvents.updated.subject })
        .select<{ payload: Buffer }[]>('payload')
    )
      .map((row) => noteEvents.updated.decode(row.payload))
      .filter((event) => event.note?.id === noteId);

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-notes-todos-')),
      schema: 'notes',
      migrations: notesMigrations,
      logger,
    });
    await db.migrate();
    ctx = {
      knex: db.knex,
      unitOfWork: createUnitOfWork(db.knex, () => {
        kicks += 1;
      }),
      quota: {
        consume: () => Promise.reject(new Error('todos never create notes')),
        refund: async () => {},
        recordingLimit: async () => 60,
        close: () => {},
      },
    };
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  describe('todosRecent', () => {
    const userId = randomUUID();
    let older: string;
    let newer: string;

    beforeAll(async () => {
      [older, , newer] = (await seed(userId, [
        { title: 'Older', body: '- [ ] o1\n- [x] o2\n- [ ] o3' },
        { title: 'No todos', body: 'just text, and `[ ]` in code' },
        { title: 'Newer', body: '```\n- [ ] code\n```\n- [x] n1\n  - [ ] n2' },
      ])) as [string, string, string];
      await seed(randomUUID(), [{ title: 'Someone else', body: '- [ ] not yours' }]);
    });

    it('lists open todos, newest note first and in document order within a note', async () => {
      const { items } = await todosRecent(ctx, userId, {});
      expect(items.map((t) => [t.noteTitle, t.index, t.line, t.text, t.done])).toEqual([
        ['Newer', 1, 4, 'n2', false],
        ['Older', 0, 0, 'o1', false],
        ['Older', 2, 2, 'o3', false],
      ]);
      expect(items[0]).toMatchObject({
        noteId: newer,
        noteUpdatedAt: new Date(Date.UTC(2027, 0, 1, 0, 2)).toISOString(),
      });
    });

    it('lists done todos or all of them when asked, up to the limit', async () => {
      const done = await todosRecent(ctx, userId, { done: 'true' });
      expect(done.items.map((t) => t.text)).toEqual(['n1', 'o2']);
      const all = await todosRecent(ctx, userId, { done: 'all', limit: '4' });
      expect(all.items.map((t) => t.text)).toEqual(['n1', 'n2', 'o1', 'o2']);
      expect(all.items[2]?.noteId).toBe(older);
    });

    it('refuses a limit out of range and an unknown filter', async () => {
      for (const query of [{ limit: '0' }, { limit: '201' }, { done: 'maybe' }]) {
        await expect(todosRecent(ctx, userId, query)).rejects.toMatchObject({
          name: 'ZodError',
        });
      }
    });

    it('pages through many notes with the same update time without losing or repeating one', async () => {
      const many = randomUUID();
      const at = new Date(Date.UTC(2027, 5, 1));
      const rows = Array.from({ length: 45 }, (_, i) => ({
        id: randomUUID(),
        user_id: many,
        title: `n${i}`,
        body: `- [ ] todo ${i}`,
        updated_at: at,
      }));
      await db.knex('notes').insert(rows);
      const { items } = await todosRecent(ctx, many, { limit: '200' });
      expect(items).toHaveLength(45);
      expect(new Set(items.map((t) => t.noteId)).size).toBe(45);
      expect(items.map((t) => t.noteId)).toEqual(
        rows
          .map((r) => r.id)
          .sort()
          .reverse(),
      );
    });

    it('reads a bounded number of notes however few todos match', async () => {
      const busy = randomUUID();
      await db.knex('notes').insert(
        Array.from({ length: 401 }, (_, i) => ({
          id: randomUUID(),
          user_id: busy,
          title: `done ${i}`,
          body: '- [x] finished',
          updated_at: new Date(Date.UTC(2027, 6, 1) + (401 - i) * 1000),
        })),
      );
      const oldest = (await seed(busy, [{ title: 'oldest', body: '- [ ] open' }]))[0];
      await db
        .knex('notes')
        .where({ id: oldest })
        .update({ updated_at: new Date(0) });
      expect((await todosRecent(ctx, busy, {})).items).toEqual([]);
      expect((await todosRecent(ctx, busy, { done: 'true' })).items).toHaveLength(50);
    });
  });

  describe('todoSet', () => {
    const userId = randomUUID();
    const body = '# Plan\r\n- [ ] one\n* [X] two\n~~~\n- [ ] code\n~~~\n1. [ ] three';

    it('checks exactly that checkbox and announces the note in its transaction', async () => {
      const [id] = (await seed(userId, [{ title: 'Plan', body }])) as [string];
      const before = kicks;
      const todo = await todoSet(ctx, userId, { id, index: '2' }, { done: true });
      expect(todo).toMatchObject({ noteId: id, index: 2, line: 6, text: 'three', done: true });
      const row = await db.knex('notes').where({ id }).first<{ body: string; updated_at: Date }>();
      expect(row?.body).toBe(body.replace('1. [ ] three', '1. [x] three'));
      expect(todo.noteUpdatedAt).toBe(row?.updated_at.toISOString());
      const events = await eventsFor(id);
      expect(events.map((e) => e.note?.body)).toEqual([row?.body]);
      expect(kicks).toBeGreaterThan(before);

      const unchecked = await todoSet(ctx, userId, { id, index: '1' }, { done: false });
      expect(unchecked).toMatchObject({ text: 'two', done: false });
      expect((await db.knex('notes').where({ id }).first<{ body: string }>())?.body).toBe(
        body.replace('1. [ ] three', '1. [x] three').replace('[X] two', '[ ] two'),
      );
    });

    it('writes nothing when the checkbox is already in that state', async () => {
      const [id] = (await seed(userId, [{ title: 'Same', body }])) as [string];
      const todo = await todoSet(ctx, userId, { id, index: '1' }, { done: true });
      expect(todo).toMatchObject({ text: 'two', done: true });
      expect(await eventsFor(id)).toEqual([]);
      expect((await db.knex('notes').where({ id }).first<{ body: string }>())?.body).toBe(body);
    });

    it('answers CONFLICT and changes nothing when the checkbox is gone or reads otherwise', async () => {
      const [id] = (await seed(userId, [{ title: 'Moved', body }])) as [string];
      await expect(todoSet(ctx, userId, { id, index: '3' }, { done: true })).rejects.toMatchObject({
        code: 'CONFLICT',
        status: 409,
      });
      await expect(
        todoSet(ctx, userId, { id, index: '0' }, { done: true, expectedText: 'two' }),
      ).rejects.toMatchObject({ code: 'CONFLICT', details: { text: 'one' } });
      expect((await db.knex('notes').where({ id }).first<{ body: string }>())?.body).toBe(body);
      expect(await eventsFor(id)).toEqual([]);
      const matching = await todoSet(
        ctx,
        userId,
        { id, index: '0' },
        { done: true, expectedText: 'one' },
      );
      expect(matching.done).toBe(true);
    });

    it("answers NOT_FOUND for another user's note and leaves it alone", async () => {
      const [id] = (await seed(userId, [{ title: 'Mine', body }])) as [string];
      await expect(
        todoSet(ctx, randomUUID(), { id, index: '0' }, { done: true }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await db.knex('notes').where({ id }).first<{ body: string }>())?.body).toBe(body);
    });

    it('refuses a malformed index or state', async () => {
      const id = randomUUID();
      for (const [params, input] of [
        [{ id, index: '-1' }, { done: true }],
        [{ id, index: 'x' }, { done: true }],
        [{ id: 'nope', index: '0' }, { done: true }],
        [{ id, index: '0' }, { done: 'yes' }],
      ] as const) {
        await expect(todoSet(ctx, userId, params, input)).rejects.toMatchObject({
          name: 'ZodError',
        });
      }
    });
  });
});
