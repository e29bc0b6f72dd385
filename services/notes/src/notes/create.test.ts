import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@noted/db';
import { notesV1 } from '@noted/proto';
import type { NotesContext } from '../context.js';
import { noteCreate, noteUpdate } from '../test/validated.js';
import { testNotesContext, openTestNotesDatabase } from '../test/context.js';
import { noteDelete } from './usecases.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-notes-create-'));
let db: Database;
let ctx: NotesContext;
/**
 * Per user: notes_per_month consumed and not given back, and how many times it was asked. As
 * the users service does, a note id is charged once however often it is asked for.
 */
const used = new Map<string, number>();
const asked = new Map<string, number>();
const charged = new Set<string>();

beforeAll(async () => {
  db = await openTestNotesDatabase(dataDir);
  ctx = {
    ...testNotesContext(db.knex),
    quota: {
      consume: async (userId, _feature, noteId) => {
        asked.set(userId, (asked.get(userId) ?? 0) + 1);
        const key = `${userId} ${noteId}`;
        if (!charged.has(key)) used.set(userId, (used.get(userId) ?? 0) + 1);
        charged.add(key);
        return async () => {
          if (!charged.delete(key)) return;
          used.set(userId, (used.get(userId) ?? 0) - 1);
        };
      },
      refund: async () => {},
      recordingLimit: async () => 60,
      close: () => {},
    },
  };
}, 60_000);

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The ids of the notes announced as created for this user, in order. */
const announcedCreated = async (userId: string) => {
  const rows = await db
    .knex('outbox')
    .where({ subject: 'noted.notes.v1.note.created' })
    .orderBy('seq');
  return rows
    .map((row: { payload: Buffer }) => fromBinary(notesV1.NoteCreatedSchema, row.payload).note)
    .filter((note) => note?.userId === userId)
    .map((note) => note?.id);
};

const notesOf = async (userId: string) =>
  db.knex('notes').where({ user_id: userId }).select('id', 'title');

describe('creating a note with an id the client chose', () => {
  it('makes one note when the same creation is sent twice, and answers it both times', async () => {
    const userId = randomUUID();
    const id = randomUUID();
    const first = await noteCreate(ctx, userId, { id, title: 'Offline thought' });
    expect(first).toMatchObject({ id, title: 'Offline thought' });

    const edited = await noteUpdate(ctx, userId, id, { note: 'edited since' });
    const again = await noteCreate(ctx, userId, { id, title: 'Offline thought' });
    expect(again).toEqual(edited);

    expect(await notesOf(userId)).toEqual([{ id, title: 'Offline thought' }]);
    expect(await announcedCreated(userId)).toEqual([id]);
    expect(used.get(userId)).toBe(1);
    expect(asked.get(userId)).toBe(1);
  });

  it('makes one note when the same creation arrives twice at once', async () => {
    const userId = randomUUID();
    // The second names a [[Title]] (the transaction path): both insert paths meet the duplicate.
    const ids: string[] = [];
    for (const note of ['plain', 'see [[Elsewhere]]']) {
      const id = randomUUID();
      ids.push(id);
      const [a, b] = await Promise.all([
        noteCreate(ctx, userId, { id, title: 'Twice', note }),
        noteCreate(ctx, userId, { id, title: 'Twice', note }),
      ]);
      expect(a).toMatchObject({ id, note });
      expect(b).toEqual(a);
    }
    expect((await notesOf(userId)).map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(await announcedCreated(userId)).toEqual(ids);
    expect(used.get(userId)).toBe(2);
  });

  it("refuses an id of another user's note and changes nothing", async () => {
    const owner = randomUUID();
    const other = randomUUID();
    const id = randomUUID();
    const original = await noteCreate(ctx, owner, { id, title: 'Mine', note: 'private' });

    await expect(noteCreate(ctx, other, { id, title: 'Yours?' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This id is taken; create the note with another id',
    });
    expect(await notesOf(other)).toEqual([]);
    expect(await announcedCreated(other)).toEqual([]);
    expect(used.get(other) ?? 0).toBe(0);
    const kept = await db.knex('notes').where({ id }).first('user_id', 'title', 'body');
    expect(kept).toEqual({ user_id: owner, title: 'Mine', body: original.note });
  });

  it('gives a contested id to one user only when two create with it at once', async () => {
    const [ada, bob] = [randomUUID(), randomUUID()];
    const id = randomUUID();
    const results = await Promise.allSettled([
      noteCreate(ctx, ada, { id, title: 'Ada' }),
      noteCreate(ctx, bob, { id, title: 'Bob' }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'CONFLICT' });
    const [winner, loser] = results[0].status === 'fulfilled' ? [ada, bob] : [bob, ada];
    expect(await db.knex('notes').where({ id }).first('user_id')).toEqual({ user_id: winner });
    expect(await announcedCreated(loser)).toEqual([]);
    expect(used.get(winner)).toBe(1);
    expect(used.get(loser) ?? 0).toBe(0);
  });

  it('creates the note again after it was deleted: ids are not reserved', async () => {
    const userId = randomUUID();
    const id = randomUUID();
    await noteCreate(ctx, userId, { id, title: 'First life' });
    await noteDelete(ctx, userId, id);
    const reborn = await noteCreate(ctx, userId, { id, title: 'Second life' });
    expect(reborn).toMatchObject({ id, title: 'Second life' });
    expect(await notesOf(userId)).toEqual([{ id, title: 'Second life' }]);
    // The unit is asked for again; the users service charges it, the first note's note.deleted
    // having ended its charge (services/users quota tests).
    expect(asked.get(userId)).toBe(2);
  });

  it('refuses an id that is not a UUID', async () => {
    await expect(noteCreate(ctx, randomUUID(), { id: 'note-1', title: 'x' })).rejects.toThrow(
      /Not a note id/,
    );
  });
});

describe('creating a note written elsewhere before (an import)', () => {
  it('keeps the date it was written, is changed now, and takes a note of this month', async () => {
    const userId = randomUUID();
    const note = await noteCreate(ctx, userId, {
      title: 'From the old app',
      createdAt: '2024-03-01T10:30:00+01:00',
    });
    expect(note.createdAt).toBe('2024-03-01T09:30:00.000Z');
    expect(Date.parse(note.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(used.get(userId)).toBe(1);
  });

  it('refuses a date in the future, before 1970, or not a date at all, and makes nothing', async () => {
    const userId = randomUUID();
    for (const createdAt of ['2999-01-01T00:00:00Z', '1969-12-31T23:59:59Z', 'yesterday']) {
      await expect(noteCreate(ctx, userId, { title: 'x', createdAt })).rejects.toThrow();
    }
    expect(await notesOf(userId)).toEqual([]);
  });
});
