import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type Note } from '@noted/api';
import { indexed } from './test/ai.js';
import { getTestApp, infraLabel, testInfra, type TestApp } from './test/app.js';

/** A counter or gauge of the app's metrics, 0 when not reported yet. */
const metric = async (app: TestApp, name: string) => {
  const text = await (await fetch(app.noted.metricsUrl ?? '')).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? 0);
};

/**
 * e5 on the embedded defaults only: on the suites' shared Postgres it would set out to embed
 * every suite's chunks, a few a second, before this user's.
 */
const withE5 = testInfra.databaseUrl === undefined;

describe(`ai search with the default local embedding models (${infraLabel})`, () => {
  let app: TestApp;
  let client: ApiClient;
  const notes: Record<string, Note> = {};

  beforeAll(async () => {
    app = await getTestApp({ env: { AI_LOCAL_EMBEDDINGS: withE5 ? 'use+e5' : 'use' } });
    const token = await app.tokenFor(`model-${randomUUID()}@example.com`);
    client = createApiClient({ baseUrl: app.url, getToken: async () => token });
    notes.car = await client.notes.create({
      title: 'Mechanic',
      note: 'New brake pads and an oil change, $340. Next service in spring.',
    });
    notes.dentist = await client.notes.create({
      title: 'Appointments',
      note: 'Dentist moved to Thursday 3pm.',
    });
    notes.rent = await client.notes.create({ title: '房租', note: '房租每月五号交，4500元' });
    // The model loads on the first embed, in a worker thread: more time than the hashed vectors.
    await indexed(client, 3, 60_000);
    // Then e5 embeds the three chunks in the background.
    const deadline = Date.now() + 60_000;
    while (withE5 && (await metric(app, 'noted_ai_index_retrieval_chunks_total')) < 3) {
      if (Date.now() > deadline) throw new Error('e5 did not embed the chunks within a minute');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('says the sentence encoder makes the vectors, and that search is by a model', async () => {
    const settings = await client.ai.settings();
    expect(settings.models.embeddings).toBe('use-multilingual-v3');
    expect(settings.features).toMatchObject({ search: 'model', related: 'model' });
  });

  it.skipIf(!withE5)(
    'gives every chunk a vector by e5 in the background, then has none left to embed',
    async () => {
      expect(await metric(app, 'noted_ai_index_retrieval_chunks_total')).toBe(3);
      expect(await metric(app, 'noted_ai_index_retrieval_pending_chunks')).toBe(0);
      const settings = await client.ai.settings();
      expect(settings.models.retrieval).toBe('multilingual-e5-small-q4');
      expect(settings.index.retrievalPending).toBe(0);
    },
  );

  it('finds notes for questions that share no word with them, across languages', async () => {
    const car = await client.ai.search({ query: 'How much did fixing the car cost?' });
    expect(car.items[0]?.note.id).toBe(notes.car?.id);
    expect(car.items[0]?.sources).toContain('semantic');
    const rent = await client.ai.search({ query: 'When is the rent due?' });
    expect(rent.items[0]?.note.id).toBe(notes.rent?.id);
  });

  it('lists the notes nearest in meaning, marked, when none is clearly about the query', async () => {
    const unrelated = await client.ai.search({ query: 'lattice gauge theory in particle physics' });
    expect(unrelated.items.length).toBeGreaterThan(0);
    expect(unrelated.items.length).toBeLessThanOrEqual(3);
    expect(unrelated.items.every((hit) => hit.nearest && hit.sources.includes('semantic'))).toBe(
      true,
    );
    const car = await client.ai.search({ query: 'How much did fixing the car cost?' });
    expect(car.items.map((hit) => hit.nearest)).not.toContain(true);
  });
});

// On the embedded defaults only: the app restarted on the encoder re-embeds every note of its
// database, and the suites' shared Postgres holds every suite's notes.
describe.skipIf(testInfra.databaseUrl !== undefined)(
  `re-embedding when the local model changes (${infraLabel})`,
  () => {
    it('embeds notes written under the hashed vectors again with the sentence encoder, counted as pending until done', async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'noted-model-change-'));
      const email = `model-change-${randomUUID()}@example.com`;
      const clientOf = async (app: TestApp) => {
        const token = await app.tokenFor(email);
        return createApiClient({ baseUrl: app.url, getToken: async () => token });
      };
      try {
        const before = await getTestApp({ env: { NOTED_DATA_DIR: dataDir } });
        const first = await clientOf(before);
        const car = await first.notes.create({
          title: 'Mechanic',
          note: 'New brake pads and an oil change, $340.',
        });
        await first.notes.create({ title: 'Groceries', note: 'Milk, eggs, spinach.' });
        expect((await indexed(first, 2)).models.embeddings).toBe('local-hashed-v1');
        await before.stop();

        const after = await getTestApp({
          env: { NOTED_DATA_DIR: dataDir, AI_LOCAL_EMBEDDINGS: 'use' },
        });
        try {
          const client = await clientOf(after);
          const settings = await indexed(client, 2, 60_000);
          expect(settings.models.embeddings).toBe('use-multilingual-v3');
          const found = await client.ai.search({ query: 'How much did fixing the car cost?' });
          expect(found.items[0]?.note.id).toBe(car.id);
        } finally {
          await after.stop();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);
