import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Note } from '@noted/api';
import type { Database } from '@noted/db';
import {
  IDENTITY_HEADER,
  createHttpApp,
  createLogger,
  finishHttpApp,
  listen,
  requireIdentity,
  signIdentity,
  type RunningServer,
} from '@noted/kit';
import { openObjectStore } from '@noted/storage';
import { notesRouter } from '../service.js';
import { openTestNotesDatabase, testNotesContext } from '../test/context.js';

const secret = 'a-secret-of-at-least-thirty-two-chars!!';
const logger = createLogger({ level: 'silent' });
const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-notes-multipart-'));
const userId = randomUUID();
let db: Database;
let server: RunningServer;
let identity: string;

beforeAll(async () => {
  db = await openTestNotesDatabase(dataDir);
  const objects = await openObjectStore({ root: path.join(dataDir, 'objects') });
  const app = createHttpApp({ service: 'notes', logger, ready: () => true });
  app.use('/api', requireIdentity(secret));
  app.use(
    notesRouter({
      ...testNotesContext(db.knex),
      objects,
      logger,
      publicUrl: 'http://localhost:8080',
      reviewFirstDueSeconds: 86_400,
    }),
  );
  finishHttpApp(app, logger);
  server = await listen(app, 0, '127.0.0.1');
  identity = await signIdentity(secret, { userId, sub: 's', email: 'e@example.com', name: 'N' });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (method: string, route: string, body?: FormData | string, type?: string) =>
  fetch(`${server.url}${route}`, {
    method,
    headers: { [IDENTITY_HEADER]: identity, ...(type ? { 'content-type': type } : {}) },
    ...(body === undefined ? {} : { body }),
  });

const createNote = async (): Promise<Note> => {
  const created = await api(
    'POST',
    '/api/note/create/direct',
    JSON.stringify({ title: 'Kept', note: 'As it was', tags: ['kept'] }),
    'application/json',
  );
  expect(created.status).toBe(201);
  return (await created.json()) as Note;
};

const putForm = (id: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return api('PUT', `/api/notes/${id}`, form);
};

/** `[[[ … ]]]`, `depth` arrays deep, as JSON text. */
const nested = (depth: number, leaf = '') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

describe('a multipart note update with deeply nested JSON in a field', () => {
  it('answers 400 VALIDATION_FAILED naming the field, for images and tags, and changes nothing', async () => {
    const note = await createNote();
    // 30 KB of brackets (the report), and as deep as the 64 KB field allows.
    for (const depth of [15_000, 32_000]) {
      for (const field of ['images', 'tags']) {
        for (const leaf of ['', '"\\u0000"']) {
          const response = await putForm(note.id, { [field]: nested(depth, leaf) });
          const label = `${field} ${depth} deep${leaf ? ' with a NUL' : ''}`;
          expect(response.status, label).toBe(400);
          const { error } = (await response.json()) as ErrorBody;
          expect(error.code, label).toBe('VALIDATION_FAILED');
          expect(error.message.startsWith(`${field}: `), `${label}: ${error.message}`).toBe(true);
          expect(error.message.length, label).toBeLessThan(300);
        }
      }
    }
    const kept = await api('GET', `/api/notes/${note.id}`);
    expect(await kept.json()).toMatchObject({ title: 'Kept', note: 'As it was', tags: ['kept'] });
  });

  it('still takes a form that is fine', async () => {
    const note = await createNote();
    const response = await putForm(note.id, { title: 'From a form', tags: '["work","ideas"]' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ title: 'From a form', tags: ['work', 'ideas'] });
  });
});
