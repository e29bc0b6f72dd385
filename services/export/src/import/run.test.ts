import { describe, expect, it } from 'vitest';
import { assertNotesLeft, planMarkdownImport } from './plan.js';
import { runImport, type ImportProgress } from './run.js';
import { notesStore } from './test/notes-store.js';
import { PNG_1X1 } from './test/zip.js';
import type { ImportFile } from './zip.js';

const file = (path: string, data: string | Uint8Array): ImportFile => ({
  path,
  bytes: typeof data === 'string' ? Buffer.from(data) : data,
});

const files = () => [
  file(
    'Journal.md',
    '---\ntitle: Journal\ntags: [daily]\n---\nSee [ideas](Ideas.md)\n\n![sky](sky.png)',
  ),
  file('Ideas.md', '# Ideas\n\n- a #idea\n- b ![sky](sky.png) ![sea](sea.png)'),
  file('Plain.md', 'no title here'),
  file('sky.png', PNG_1X1),
  file('sea.png', PNG_1X1),
];

const existingIn = (store: ReturnType<typeof notesStore>) => new Set(store.notes.keys());

describe('writing an import through the notes service', () => {
  it('creates the notes with their planned ids and points their bodies at the uploaded images', async () => {
    const store = notesStore();
    const plan = await planMarkdownImport({
      userId: 'u',
      files: files(),
      existing: existingIn(store),
    });
    const progress: ImportProgress[] = [];
    const result = await runImport(plan, store.port, { onProgress: (p) => progress.push(p) });

    expect(result.created).toEqual(plan.notes.map((note) => note.id));
    expect(result.imagesUploaded).toBe(3);
    expect(result.failed).toEqual([]);
    const journal = store.notes.get(plan.notes.find((n) => n.title === 'Journal')!.id)!;
    expect(journal.tags).toEqual(['daily']);
    expect(journal.images).toHaveLength(1);
    expect(journal.note).toBe(`See [[Ideas]]\n\n![sky](${journal.images[0]})`);
    const ideas = store.notes.get(plan.notes.find((n) => n.title === 'Ideas')!.id)!;
    expect(ideas.note).toBe(`- a #idea\n- b ![sky](${ideas.images[0]}) ![sea](${ideas.images[1]})`);
    expect(ideas.tags).toEqual(['idea']);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3]);
    expect(progress.at(-1)).toEqual({ done: 3, total: 3, created: 3, updated: 0, failed: 0 });
  });

  it('updates the same notes on a re-import: nothing duplicated, no image twice, no allowance taken', async () => {
    const store = notesStore({ notesLeft: 3 });
    const first = await planMarkdownImport({
      userId: 'u',
      files: files(),
      existing: existingIn(store),
    });
    await runImport(first, store.port);
    const before = new Map([...store.notes].map(([id, note]) => [id, note.images]));

    const changed = files().map((f) =>
      f.path === 'Plain.md' ? file('Plain.md', 'now with a picture ![sea](sea.png)') : f,
    );
    const again = await planMarkdownImport({
      userId: 'u',
      files: changed,
      existing: existingIn(store),
    });
    expect([again.toCreate, again.toUpdate]).toEqual([0, 3]);
    expect(() => assertNotesLeft(again, store.left())).not.toThrow();
    const result = await runImport(again, store.port);

    expect(result.updated).toEqual(first.notes.map((note) => note.id));
    expect(store.notes.size).toBe(3);
    expect(result.imagesUploaded).toBe(1);
    for (const [id, images] of before) {
      expect(store.notes.get(id)!.images.slice(0, images.length)).toEqual(images);
    }
    const plain = store.notes.get(again.notes.find((n) => n.sourcePath === 'Plain.md')!.id)!;
    expect(plain.note).toBe(`now with a picture ![sea](${plain.images[0]})`);
    expect(store.left()).toBe(0);
  });

  it('lists a refused image and goes on with the other notes', async () => {
    const store = notesStore({ refuseImage: 'sea.png' });
    const plan = await planMarkdownImport({ userId: 'u', files: files(), existing: new Set() });
    const result = await runImport(plan, store.port);
    expect(result.created).toHaveLength(3);
    expect(result.failed).toEqual([
      expect.objectContaining({ sourcePath: 'Ideas.md', code: 'NOT_AN_IMAGE', image: 'sea.png' }),
    ]);
    const ideas = store.notes.get(plan.notes.find((n) => n.title === 'Ideas')!.id)!;
    expect(ideas.note).toBe(`- a #idea\n- b ![sky](${ideas.images[0]}) ![sea](sea.png)`);
  });

  it('stops with NOTES_LEFT_NOT_ENOUGH and what was done when the allowance runs out meanwhile', async () => {
    const store = notesStore({ notesLeft: 2 });
    const plan = await planMarkdownImport({ userId: 'u', files: files(), existing: new Set() });
    const error = await runImport(plan, store.port).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'NOTES_LEFT_NOT_ENOUGH',
      details: { result: { created: plan.notes.slice(0, 2).map((note) => note.id) } },
    });
    expect(store.notes.size).toBe(2);
  });

  it('stops between notes when cancelled', async () => {
    const store = notesStore();
    const plan = await planMarkdownImport({ userId: 'u', files: files(), existing: new Set() });
    const controller = new AbortController();
    const result = await runImport(plan, store.port, {
      signal: controller.signal,
      onProgress: (p) => p.done === 1 && controller.abort(),
    });
    expect(result.cancelled).toBe(true);
    expect(store.notes.size).toBe(1);
  });
});
