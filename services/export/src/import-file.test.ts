import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient, type ImportProgress } from '@noted/api';
import {
  IDENTITY_HEADER,
  createHttpApp,
  createLogger,
  finishHttpApp,
  listen,
  requireIdentity,
  signIdentity,
} from '@noted/kit';
import { zipOf } from '@noted/testing';
import { createSandbox } from '@noted/sandbox';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { importFile } from './import-file.js';
import { importsDone } from './metrics.js';
import type { NotesPort, UserNotesPort } from './notes-port.js';
import { notesStore } from './import/test/notes-store.js';

const secret = 's'.repeat(48);
const logger = createLogger({ level: 'silent' });
const userId = randomUUID();

/** Where this file's uploads go: nothing may be left in it after a request. */
const uploads = await mkdtemp(path.join(tmpdir(), 'import-file-test-'));
/** Removed once the answer has ended (a moment after the client has read it all). */
const leftovers = () => readdir(uploads);

/** The route alone behind the identity check, over a store standing in for the notes service. */
const serve = async (options: {
  maxBytes?: number;
  readTimeoutMs?: number;
  notesLeft?: number | null;
  /** Holds every creation until released (a slow notes service). */
  gate?: Promise<void>;
  store?: ReturnType<typeof notesStore>;
}) => {
  const store = options.store ?? notesStore();
  const port: UserNotesPort = {
    ...store.port,
    create: async (note) => {
      await options.gate;
      return store.port.create(note);
    },
    existing: async (ids) => ids.filter((id) => store.notes.has(id)),
    notesLeft: async () => (options.notesLeft === undefined ? null : options.notesLeft),
  };
  const notes: NotesPort = { as: () => port };
  const app = createHttpApp({ service: 'export', logger, ready: () => true });
  app.use('/export', requireIdentity(secret));
  app.post('/export/import', (req, res, next) => {
    importFile(
      {
        notes,
        maxBytes: options.maxBytes ?? 1024 * 1024,
        sandbox,
        readTimeoutMs: options.readTimeoutMs ?? 30_000,
        logger,
        tmpDir: uploads,
      },
      req,
      res,
    ).catch(next);
  });
  finishHttpApp(app, logger);
  const server = await listen(app, 0, '127.0.0.1');
  /** Settles when a client's connection to the service has closed. */
  const connectionClosed = new Promise<void>((resolve) => {
    server.server.on('connection', (socket) => socket.once('close', () => resolve()));
  });
  const token = await signIdentity(secret, {
    userId,
    sub: 'sub',
    email: 'a@example.com',
    name: 'A',
  });
  const client = createApiClient({
    baseUrl: server.url,
    getToken: async () => undefined,
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, [IDENTITY_HEADER]: token } }),
  });
  closers.push(() => server.close());
  return { client, store, connectionClosed };
};

const closers: (() => Promise<void>)[] = [];
/** The service's sandbox: uploads are read in its processes. */
const sandbox = createSandbox({ name: 'export-test', processes: 1, memoryMb: 320 });
afterAll(() => sandbox.close());
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const markdownZip = (count: number) =>
  zipOf(
    Array.from({ length: count }, (_, i) => ({
      name: `notes/note ${String(i).padStart(3, '0')}.md`,
      data: `# Note ${i}\n\nText #imported`,
    })),
  );

describe('POST /export/import', () => {
  it('stops between two notes when the client goes away, and keeps what it wrote', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client, store, connectionClosed } = await serve({ gate });
    const controller = new AbortController();
    const before = (await importsDone.get()).values.find(
      (v) => v.labels.outcome === 'cancelled' && v.labels.source === 'markdown',
    )?.value;
    const progress: ImportProgress[] = [];
    const running = client.imports.file(new Blob([new Uint8Array(await markdownZip(50))]), {
      fileName: 'notes.zip',
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p);
        // The first event is sent before any note: the import is under way, waiting on notes.
        controller.abort();
      },
    });
    await expect(running).rejects.toThrow();
    expect(progress[0]).toEqual({ done: 0, total: 50, created: 0, updated: 0, failed: 0 });
    // The service has heard the client leave while the first note was being written.
    await connectionClosed;
    release();
    await expect
      .poll(
        async () =>
          (await importsDone.get()).values.find(
            (v) => v.labels.outcome === 'cancelled' && v.labels.source === 'markdown',
          )?.value,
      )
      .toBe((before ?? 0) + 1)
      .catch(() => undefined);
    // The note being written when the client left is finished; none after it is begun.
    expect(store.notes.size).toBe(1);
    await expect.poll(leftovers).toEqual([]);
  });

  it('refuses a file past the size limit with 413, writing nothing and keeping no file', async () => {
    const { client, store } = await serve({ maxBytes: 4096 });
    await expect(
      client.imports.file(new Blob([new Uint8Array(8192).fill(0x61)]), { fileName: 'big.md' }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(store.notes.size).toBe(0);
    await expect.poll(leftovers).toEqual([]);
  });

  it('sends progress at most every 100 ms and once at the end', async () => {
    const { client } = await serve({});
    const progress: ImportProgress[] = [];
    const result = await client.imports.file(new Blob([new Uint8Array(await markdownZip(200))]), {
      fileName: 'notes.zip',
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ created: 200, updated: 0, cancelled: false });
    expect(progress.at(-1)).toEqual({ done: 200, total: 200, created: 200, updated: 0, failed: 0 });
    // The first at once, the last at the end, few between: not one event a note.
    expect(progress.length).toBeLessThan(20);
    await expect.poll(leftovers).toEqual([]);
  });

  it('counts only new notes against the allowance: a re-import fits where a first one would not', async () => {
    const store = notesStore();
    const zip = new Uint8Array(await markdownZip(3));
    const first = await serve({ notesLeft: 3, store });
    expect(await first.client.imports.file(new Blob([zip]), { fileName: 'a.zip' })).toMatchObject({
      created: 3,
    });
    // None left for new notes: the same files are three updates, and go through.
    const again = await serve({ notesLeft: 0, store });
    expect(await again.client.imports.file(new Blob([zip]), { fileName: 'a.zip' })).toMatchObject({
      created: 0,
      updated: 3,
    });
    // Another user's store has none of them: three new notes, refused before any is written.
    const other = await serve({ notesLeft: 2 });
    await expect(
      other.client.imports.file(new Blob([zip]), { fileName: 'a.zip' }),
    ).rejects.toMatchObject({ code: 'NOTES_LEFT_NOT_ENOUGH', details: { needed: 3, left: 2 } });
    expect(other.store.notes.size).toBe(0);
  });

  it('leaves out a file nested too deeply to parse, and imports the rest', async () => {
    const { client, store } = await serve({});
    const zip = await zipOf([
      { name: 'ok.md', data: '# Fine\n\nA normal note' },
      { name: 'lists.md', data: `${'- '.repeat(100_000)}x` },
      { name: 'quotes.md', data: '>'.repeat(100_000) },
    ]);
    const result = await client.imports.file(new Blob([new Uint8Array(zip)]), {
      fileName: 'hostile.zip',
    });
    expect(result).toMatchObject({ created: 1, failed: [] });
    expect(result.skipped).toEqual([
      { path: 'lists.md', reason: 'TOO_COMPLEX' },
      { path: 'quotes.md', reason: 'TOO_COMPLEX' },
    ]);
    expect([...store.notes.values()].map((note) => note.title)).toEqual(['Fine']);
  });

  it('leaves out a file whose parsing runs past its budget, and imports the rest', async () => {
    const { client, store } = await serve({});
    // Within every depth limit, yet quadratic to parse: minutes of CPU.
    const zip = await zipOf([
      { name: 'a.md', data: '# Kept\n\nFine' },
      { name: 'costly.md', data: '[a]('.repeat(200_000) },
      { name: 'z.md', data: '# Also kept\n\nFine too' },
    ]);
    const result = await client.imports.file(new Blob([new Uint8Array(zip)]), {
      fileName: 'mixed.zip',
    });
    expect(result).toMatchObject({ created: 2, failed: [] });
    expect(result.skipped).toEqual([{ path: 'costly.md', reason: 'TOO_COMPLEX' }]);
    expect([...store.notes.values()].map((note) => note.title).sort()).toEqual([
      'Also kept',
      'Kept',
    ]);
  });

  it('refuses, writing nothing, an import holding more files too costly to read than it leaves out', async () => {
    const { client, store } = await serve({ readTimeoutMs: 2_000 });
    const costly = '[a]('.repeat(200_000);
    const zip = await zipOf([
      { name: 'fine.md', data: '# Fine' },
      ...[1, 2, 3, 4].map((n) => ({ name: `costly-${n}.md`, data: costly })),
    ]);
    await expect(
      client.imports.file(new Blob([new Uint8Array(zip)]), { fileName: 'costly.zip' }),
    ).rejects.toMatchObject({
      code: 'IMPORT_TOO_COMPLEX',
      details: { tooComplex: ['costly-1.md', 'costly-2.md', 'costly-3.md'] },
    });
    expect(store.notes.size).toBe(0);
    await expect.poll(leftovers).toEqual([]);
    // The next import is read as usual, in a fresh process.
    expect(
      await client.imports.file(new Blob([new Uint8Array(await markdownZip(2))]), {
        fileName: 'notes.zip',
      }),
    ).toMatchObject({ created: 2 });
  });
});
