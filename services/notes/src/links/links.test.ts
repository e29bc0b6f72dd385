import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@noted/db';
import { createLogger } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { notesMigrations } from '../migrations.js';
import type { NotesContext } from '../context.js';
import { noteDelete } from '../notes/usecases.js';
import {
  noteCreate,
  noteGraph,
  noteLinkAdd,
  noteLinkRemove,
  noteLinksGet,
  noteUpdate,
} from '../test/validated.js';
import { testNotesContext } from '../test/context.js';

describe('links and their events (PGlite)', () => {
  let db: Database;
  let ctx: NotesContext;

  beforeAll(async () => {
    db = await openDatabase({
      dataDir: mkdtempSync(path.join(tmpdir(), 'noted-notes-links-')),
      schema: 'notes',
      migrations: notesMigrations,
      logger: createLogger({ level: 'silent' }),
    });
    await db.migrate();
    ctx = testNotesContext(db.knex);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  /** The ids of the notes announced as updated since `seq`, in order. */
  const updatedSince = async (seq: number) => {
    const rows = await db
      .knex('outbox')
      .where('seq', '>', seq)
      .andWhere({ subject: 'noted.notes.v1.note.updated' })
      .orderBy('seq');
    return rows.map(
      (row: { payload: Buffer }) => fromBinary(notesV1.NoteUpdatedSchema, row.payload).note?.id,
    );
  };
  const lastSeq = async () =>
    Number((await db.knex('outbox').max<{ max: string | null }[]>({ max: 'seq' }))[0]?.max ?? 0);

  const outgoing = async (userId: string, id: string) =>
    (await noteLinksGet(ctx, userId, { id })).outgoing.map(({ id, kind }) => ({ id, kind }));

  it('announces the source note once per real change, not for a repeated add or remove', async () => {
    const userId = randomUUID();
    const a = await noteCreate(ctx, userId, { title: 'A' });
    const b = await noteCreate(ctx, userId, { title: 'B' });
    const before = await lastSeq();
    await noteLinkAdd(ctx, userId, { noteId: a.id, targetId: b.id });
    await noteLinkAdd(ctx, userId, { noteId: a.id, targetId: b.id });
    await noteLinkRemove(ctx, userId, { noteId: a.id, targetId: b.id });
    await noteLinkRemove(ctx, userId, { noteId: a.id, targetId: b.id });
    expect(await updatedSince(before)).toEqual([a.id, a.id]);
  });

  it('resolves older [[Title]] references when a note gets that title, and announces them', async () => {
    const userId = randomUUID();
    const referrer = await noteCreate(ctx, userId, { title: 'Index', note: 'see [[Later]]' });
    expect(await outgoing(userId, referrer.id)).toEqual([]);

    const before = await lastSeq();
    const later = await noteCreate(ctx, userId, { title: 'later' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: later.id, kind: 'wiki' }]);
    expect(await updatedSince(before)).toEqual([referrer.id]);
    const created = await db
      .knex('outbox')
      .where('seq', '>', before)
      .andWhere({ subject: 'noted.notes.v1.note.created' });
    expect(created).toHaveLength(1);
    expect(fromBinary(notesV1.NoteCreatedSchema, created[0].payload).note?.id).toBe(later.id);

    await noteUpdate(ctx, userId, later.id, { title: 'Renamed' });
    expect(await outgoing(userId, referrer.id)).toEqual([]);
    await noteUpdate(ctx, userId, later.id, { title: 'LATER' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: later.id, kind: 'wiki' }]);
  });

  it('points [[Title]] at the newest note with that title, and never at itself', async () => {
    const userId = randomUUID();
    const older = await noteCreate(ctx, userId, { title: 'Twin' });
    const self = await noteCreate(ctx, userId, { title: 'Twin', note: '[[twin]]' });
    expect(await outgoing(userId, self.id)).toEqual([{ id: older.id, kind: 'wiki' }]);
    const referrer = await noteCreate(ctx, userId, { title: 'R', note: '[[Twin|the twin]]' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: self.id, kind: 'wiki' }]);
    const newest = await noteCreate(ctx, userId, { title: 'twin' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: newest.id, kind: 'wiki' }]);
  });

  it('points [[Title]] at the older note with that title when the newer one is deleted', async () => {
    const userId = randomUUID();
    const older = await noteCreate(ctx, userId, { title: 'Plan' });
    const newer = await noteCreate(ctx, userId, { title: 'plan' });
    const referrer = await noteCreate(ctx, userId, { title: 'Index', note: 'see [[Plan]]' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: newer.id, kind: 'wiki' }]);
    await noteDelete(ctx, userId, newer.id);
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: older.id, kind: 'wiki' }]);
    await noteDelete(ctx, userId, older.id);
    expect(await outgoing(userId, referrer.id)).toEqual([]);
    // The reference is kept: a note titled Plan again is linked at once.
    const again = await noteCreate(ctx, userId, { title: 'PLAN' });
    expect(await outgoing(userId, referrer.id)).toEqual([{ id: again.id, kind: 'wiki' }]);
  });

  it("never resolves a [[Title]] to another user's note", async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    await noteCreate(ctx, bob, { title: 'Secret' });
    const mine = await noteCreate(ctx, ada, { title: 'Mine', note: '[[Secret]]' });
    expect(await outgoing(ada, mine.id)).toEqual([]);
    await noteCreate(ctx, bob, { title: 'Mine' });
    await noteCreate(ctx, bob, { title: 'Other', note: '[[Mine]]' });
    expect((await noteLinksGet(ctx, ada, { id: mine.id })).backlinks).toEqual([]);
  });

  it('refuses a self-link in the database too', async () => {
    const userId = randomUUID();
    const a = await noteCreate(ctx, userId, { title: 'Alone' });
    await expect(
      db
        .knex('note_links')
        .insert({ user_id: userId, source_id: a.id, target_id: a.id, kind: 'manual' }),
    ).rejects.toThrow(/note_links_not_self/);
    await expect(noteLinkAdd(ctx, userId, { noteId: a.id, targetId: a.id })).rejects.toMatchObject({
      name: 'ZodError',
    });
  });

  it('draws the graph of one user: linked notes first, edges only between the nodes given', async () => {
    const ada = randomUUID();
    const bob = randomUUID();
    const hub = await noteCreate(ctx, ada, { title: 'Hub', note: '[[Spoke]] and [[Rim]]' });
    const spoke = await noteCreate(ctx, ada, { title: 'Spoke' });
    const rim = await noteCreate(ctx, ada, { title: 'Rim' });
    await noteLinkAdd(ctx, ada, { noteId: hub.id, targetId: spoke.id });
    await noteUpdate(ctx, ada, hub.id, { note: '[[Spoke]] and [[Rim]] again' });
    const lonely = await noteCreate(ctx, ada, { title: 'Lonely' });
    const theirs = await noteCreate(ctx, bob, { title: 'Theirs', note: '[[Other]]' });
    await noteCreate(ctx, bob, { title: 'Other' });

    const graph = await noteGraph(ctx, ada, {});
    expect(graph.total).toBe(4);
    expect(graph.nodes.map((n) => [n.title, n.degree])).toEqual([
      ['Hub', 3],
      ['Spoke', 2],
      ['Rim', 1],
      ['Lonely', 0],
    ]);
    expect(graph.edges).toHaveLength(3);
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        { source: hub.id, target: spoke.id, kind: 'manual' },
        { source: hub.id, target: spoke.id, kind: 'wiki' },
        { source: hub.id, target: rim.id, kind: 'wiki' },
      ]),
    );
    expect(graph.nodes.map((n) => n.id)).not.toContain(theirs.id);
    expect(graph.nodes.at(-1)?.id).toBe(lonely.id);

    const two = await noteGraph(ctx, ada, { limit: '2' });
    expect(two.nodes.map((n) => n.title)).toEqual(['Hub', 'Spoke']);
    expect(two.edges.every((e) => e.target === spoke.id)).toBe(true);
    await expect(noteGraph(ctx, ada, { limit: '0' })).rejects.toThrow();
  });
});
