import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@noted/db';
import { notePin, noteShare } from './actions.js';
import type { NotesContext } from '../context.js';
import { noteCreate, noteUpdate } from '../test/validated.js';
import { testNotesContext, openTestNotesDatabase } from '../test/context.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-notes-update-'));
let db: Database;
let ctx: NotesContext;

beforeAll(async () => {
  db = await openTestNotesDatabase(dataDir);
  ctx = testNotesContext(db.knex);
}, 60_000);

afterAll(async () => {
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('updating a note from the version it was made on', () => {
  it('saves on the version the editor had, and refuses one made on an older version', async () => {
    const userId = randomUUID();
    const opened = await noteCreate(ctx, userId, { title: 'Shared draft', note: 'v1' });

    // Another tab saves first, on the same version.
    const other = await noteUpdate(ctx, userId, opened.id, {
      note: 'from the other tab',
      baseUpdatedAt: opened.updatedAt,
    });
    expect(other.note).toBe('from the other tab');

    await expect(
      noteUpdate(ctx, userId, opened.id, { note: 'mine', baseUpdatedAt: opened.updatedAt }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    const kept = await db.knex('notes').where({ id: opened.id }).first('body');
    expect(kept.body).toBe('from the other tab');

    // On the new version it goes through; without a version it always does (last write wins).
    const mine = await noteUpdate(ctx, userId, opened.id, {
      note: 'mine',
      baseUpdatedAt: other.updatedAt,
    });
    expect(mine.note).toBe('mine');
    expect((await noteUpdate(ctx, userId, opened.id, { title: 'Renamed' })).title).toBe('Renamed');
  });

  it('keeps the version when the note is only pinned or shared', async () => {
    const userId = randomUUID();
    const opened = await noteCreate(ctx, userId, { title: 'Pinned while open' });
    expect((await notePin(ctx, userId, { noteId: opened.id })).updatedAt).toBe(opened.updatedAt);
    await noteShare({ ...ctx, publicUrl: 'http://localhost:8080' }, userId, { noteId: opened.id });
    const saved = await noteUpdate(ctx, userId, opened.id, {
      note: 'still on the version the editor had',
      baseUpdatedAt: opened.updatedAt,
    });
    expect(saved).toMatchObject({ isPinned: true, note: 'still on the version the editor had' });
    expect(saved.publicId).not.toBeNull();
  });

  it('gives every change a later version than the last, even when the clock stood still or went back', async () => {
    const userId = randomUUID();
    const opened = await noteCreate(ctx, userId, { title: 'Quick edits', note: 'v1' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse(opened.updatedAt));
      const second = await noteUpdate(ctx, userId, opened.id, { note: 'v2' });
      const third = await noteUpdate(ctx, userId, opened.id, { note: 'v3' });
      // A replica whose clock is a minute behind saves next.
      vi.setSystemTime(Date.parse(opened.updatedAt) - 60_000);
      const fourth = await noteUpdate(ctx, userId, opened.id, { note: 'v4' });
      const versions = [opened, second, third, fourth].map((note) => Date.parse(note.updatedAt));
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(4);
      // So an editor still on the second version is refused, not written over the third.
      await expect(
        noteUpdate(ctx, userId, opened.id, { note: 'stale', baseUpdatedAt: second.updatedAt }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('needs a change besides the version', async () => {
    const userId = randomUUID();
    const note = await noteCreate(ctx, userId, { title: 'Alone' });
    await expect(
      noteUpdate(ctx, userId, note.id, { baseUpdatedAt: note.updatedAt }),
    ).rejects.toThrow(/at least one/);
  });
});
