import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note, Todo, TodoList } from '@noted/api';
import { getTestApp, json, type TestApp, infraLabel } from './test/app.js';

describe(`todos and multipart note updates (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const create = async (token: string, note: { title: string; note?: string; tags?: string[] }) =>
    json<Note>(app.api(token, 'POST', '/api/note/create/direct', note));
  const read = (token: string, id: string) => json<Note>(app.api(token, 'GET', `/api/notes/${id}`));
  const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  describe('todos', () => {
    it('lists the open checkboxes of the most recently updated notes', async () => {
      const user = await app.tokenFor(`todos-${randomUUID()}@example.com`);
      const first = await create(user, { title: 'Shopping', note: '- [ ] milk\n- [x] bread' });
      await create(user, { title: 'Plain', note: 'no todos here' });
      const second = await create(user, {
        title: 'Work',
        note: '1. [ ] report\n```\n- [ ] not a todo\n```\n  * [ ] slides',
      });
      await create(bob, { title: 'Bob', note: '- [ ] bob only' });

      const open = await json<TodoList>(app.api(user, 'GET', '/api/todos/recent'));
      expect(open.items.map((t) => [t.noteTitle, t.index, t.line, t.text, t.done])).toEqual([
        ['Work', 0, 0, 'report', false],
        ['Work', 1, 4, 'slides', false],
        ['Shopping', 0, 0, 'milk', false],
      ]);
      expect(open.items[0]).toMatchObject({ noteId: second.id, noteUpdatedAt: second.updatedAt });

      const all = await json<TodoList>(app.api(user, 'GET', '/api/todos/recent?done=all&limit=4'));
      expect(all.items.map((t) => t.text)).toEqual(['report', 'slides', 'milk', 'bread']);
      const done = await json<TodoList>(app.api(user, 'GET', '/api/todos/recent?done=true'));
      expect(done.items).toMatchObject([{ noteId: first.id, text: 'bread', done: true }]);

      const tooMany = await app.api(user, 'GET', '/api/todos/recent?limit=201');
      expect(tooMany.status).toBe(400);
      expect((await errorOf(tooMany)).code).toBe('VALIDATION_FAILED');
    });

    it('checks one checkbox, changing only its brackets, and moves the note to the top', async () => {
      const user = await app.tokenFor(`toggle-${randomUUID()}@example.com`);
      const body = '# Trip\r\n- [ ] tickets\n  - [X] passport\n- [ ] hotel';
      const trip = await create(user, { title: 'Trip', note: body });
      const later = await create(user, { title: 'Later', note: '- [ ] later' });

      const checked = await app.api(user, 'PUT', `/api/notes/${trip.id}/todos/2`, {
        done: true,
        expectedText: 'hotel',
      });
      expect(checked.status).toBe(200);
      const todo = (await checked.json()) as Todo;
      expect(todo).toMatchObject({ noteId: trip.id, index: 2, line: 3, text: 'hotel', done: true });
      const note = await read(user, trip.id);
      expect(note.note).toBe(body.replace('- [ ] hotel', '- [x] hotel'));
      expect(todo.noteUpdatedAt).toBe(note.updatedAt);

      const unchecked = await json<Todo>(
        app.api(user, 'PUT', `/api/notes/${trip.id}/todos/1`, { done: false }),
      );
      expect(unchecked).toMatchObject({ text: 'passport', done: false });
      expect((await read(user, trip.id)).note).toBe(
        body.replace('- [ ] hotel', '- [x] hotel').replace('[X] passport', '[ ] passport'),
      );

      const recent = await json<TodoList>(app.api(user, 'GET', '/api/todos/recent'));
      expect(recent.items.map((t) => [t.noteId, t.text])).toEqual([
        [trip.id, 'tickets'],
        [trip.id, 'passport'],
        [later.id, 'later'],
      ]);
    });

    it('answers 409 and changes nothing when the note changed under the caller', async () => {
      const note = await create(ada, { title: 'Moving', note: '- [ ] a\n- [ ] b' });
      await app.api(ada, 'PUT', `/api/notes/${note.id}`, { note: '- [ ] b' });
      const before = await read(ada, note.id);

      const gone = await app.api(ada, 'PUT', `/api/notes/${note.id}/todos/1`, { done: true });
      expect(gone.status).toBe(409);
      expect(await errorOf(gone)).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining('reload') as unknown,
      });
      const moved = await app.api(ada, 'PUT', `/api/notes/${note.id}/todos/0`, {
        done: true,
        expectedText: 'a',
      });
      expect(moved.status).toBe(409);
      expect(await read(ada, note.id)).toEqual(before);
    });

    it('serializes concurrent toggles of one note so that none is lost', async () => {
      const lines = Array.from({ length: 8 }, (_, i) => `- [ ] item ${i}`);
      const note = await create(ada, { title: 'Race', note: lines.join('\n') });
      const answers = await Promise.all(
        lines.map((_, i) =>
          app.api(ada, 'PUT', `/api/notes/${note.id}/todos/${i}`, {
            done: true,
            expectedText: `item ${i}`,
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(lines.map(() => 200));
      expect((await read(ada, note.id)).note).toBe(lines.join('\n').replaceAll('[ ]', '[x]'));
    });

    it("answers 404 for another user's note and leaves it unchanged", async () => {
      const note = await create(ada, { title: 'Private', note: '- [ ] secret' });
      const response = await app.api(bob, 'PUT', `/api/notes/${note.id}/todos/0`, { done: true });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('NOT_FOUND');
      expect((await read(ada, note.id)).note).toBe('- [ ] secret');
      const list = await json<TodoList>(app.api(bob, 'GET', '/api/todos/recent'));
      expect(list.items.map((t) => t.noteId)).not.toContain(note.id);
    });
  });

  describe('multipart PUT /api/notes/{id}', () => {
    const putForm = (token: string, id: string, form: FormData) =>
      fetch(`${app.url}/api/notes/${id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    const noteFile = (text: string | Uint8Array, type = 'text/markdown') =>
      new Blob([text], { type });

    it('updates the title, tags and body from a form with the body as a file', async () => {
      const note = await create(ada, { title: 'Draft', note: 'old', tags: ['old'] });
      const form = new FormData();
      form.append('title', 'Final');
      form.append('tags', JSON.stringify(['work', 'ideas', 'work']));
      form.append('note', noteFile('# Final\n\nNew body — with ünïcödé'), 'note.md');
      const response = await putForm(ada, note.id, form);
      expect(response.status).toBe(200);
      const updated = (await response.json()) as Note;
      expect(updated).toMatchObject({
        title: 'Final',
        tags: ['work', 'ideas'],
        note: '# Final\n\nNew body — with ünïcödé',
      });
      expect(await read(ada, note.id)).toEqual(updated);

      const titleOnly = new FormData();
      titleOnly.append('title', 'Only the title');
      const renamed = await json<Note>(putForm(ada, note.id, titleOnly));
      expect(renamed).toMatchObject({ title: 'Only the title', note: updated.note });
    });

    it('refuses malformed tags JSON with VALIDATION_FAILED and changes nothing', async () => {
      const note = await create(ada, { title: 'Tags', tags: ['keep'] });
      for (const tags of ['["work"', '"work"', '["has space"]']) {
        const form = new FormData();
        form.append('tags', tags);
        const response = await putForm(ada, note.id, form);
        expect(response.status, tags).toBe(400);
        expect((await errorOf(response)).code, tags).toBe('VALIDATION_FAILED');
      }
      expect((await read(ada, note.id)).tags).toEqual(['keep']);
    });

    it('refuses a note file over 1 MB with 413', async () => {
      const note = await create(ada, { title: 'Big', note: 'small' });
      const form = new FormData();
      form.append('note', noteFile('x'.repeat(1_000_001), 'text/plain'), 'big.txt');
      const response = await putForm(ada, note.id, form);
      expect(response.status).toBe(413);
      expect((await errorOf(response)).code).toBe('PAYLOAD_TOO_LARGE');
      expect((await read(ada, note.id)).note).toBe('small');

      const exactly = new FormData();
      exactly.append('note', noteFile('y'.repeat(1_000_000), 'text/plain'), 'big.txt');
      expect((await putForm(ada, note.id, exactly)).status).toBe(200);
    });

    it('refuses a note file that is not UTF-8 text', async () => {
      const note = await create(ada, { title: 'Bytes', note: 'text' });
      const invalid = new FormData();
      invalid.append('note', noteFile(new Uint8Array([0x68, 0xff, 0xfe, 0x69])), 'bad.md');
      const notUtf8 = await putForm(ada, note.id, invalid);
      expect(notUtf8.status).toBe(422);
      expect((await errorOf(notUtf8)).message).toMatch(/UTF-8/);

      const image = new FormData();
      image.append('note', noteFile('GIF89a', 'image/gif'), 'note.gif');
      expect((await putForm(ada, note.id, image)).status).toBe(415);
      expect((await read(ada, note.id)).note).toBe('text');
    });

    it('can drop images but not add any, since a note has no images to keep yet', async () => {
      const note = await create(ada, { title: 'Pictures' });
      const add = new FormData();
      add.append('images', JSON.stringify(['https://example.com/cat.png']));
      const added = await putForm(ada, note.id, add);
      expect(added.status).toBe(400);
      expect((await errorOf(added)).code).toBe('VALIDATION_FAILED');
      expect((await read(ada, note.id)).images).toEqual([]);

      const none = new FormData();
      none.append('images', '[]');
      expect((await json<Note>(putForm(ada, note.id, none))).images).toEqual([]);
      const viaJson = await app.api(ada, 'PUT', `/api/notes/${note.id}`, {
        images: ['https://example.com/dog.png'],
      });
      expect(viaJson.status).toBe(400);
    });

    it("answers 404 for another user's note and leaves it unchanged", async () => {
      const note = await create(ada, { title: 'Ada only', note: 'mine' });
      const form = new FormData();
      form.append('title', 'Taken');
      form.append('note', noteFile('overwritten'), 'note.md');
      const response = await putForm(bob, note.id, form);
      expect(response.status).toBe(404);
      expect(await read(ada, note.id)).toMatchObject({ title: 'Ada only', note: 'mine' });
    });

    it('refuses extra files, unknown fields and the body as a text field', async () => {
      const note = await create(ada, { title: 'Strict' });
      const cases: [string, (form: FormData) => void][] = [
        ['second file', (f) => f.append('other', noteFile('x'), 'x.md')],
        ['unknown field', (f) => f.append('colour', 'red')],
        ['text note', (f) => f.append('note', 'as text')],
      ];
      for (const [name, fill] of cases) {
        const form = new FormData();
        form.append('title', 'Changed');
        fill(form);
        expect((await putForm(ada, note.id, form)).status, name).toBe(400);
      }
      expect((await read(ada, note.id)).title).toBe('Strict');
    });

    it('keeps the JSON PUT working', async () => {
      const note = await create(ada, { title: 'JSON' });
      const updated = await json<Note>(
        app.api(ada, 'PUT', `/api/notes/${note.id}`, { title: 'Still JSON', tags: ['json'] }),
      );
      expect(updated).toMatchObject({ title: 'Still JSON', tags: ['json'] });
    });
  });
});
