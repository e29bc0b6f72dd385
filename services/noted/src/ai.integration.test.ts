import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  type AiHitList,
  type AiSettings,
  type ApiClient,
  type ErrorBody,
  type Note,
} from '@noted/api';
import { createGrpcClient } from '@noted/grpc';
import { callerMetadata } from '@noted/kit';
import { aiV1 } from '@noted/proto';
import { runReindex } from './reindex.js';
import { indexed, streamed, textOf } from './test/ai.js';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

describe(`ai with the built-in local provider (${infraLabel})`, () => {
  let app: TestApp;
  let ada: { token: string; client: ApiClient };
  let bob: { token: string; client: ApiClient };
  // Words unique to this run, so a shared Postgres database from earlier runs cannot interfere.
  const run = randomUUID().replaceAll('-', '').slice(0, 6);
  const word = (name: string) => `${name}${run}`;
  const notes: Record<string, Note> = {};

  const userOf = async (email: string) => {
    const token = await app.tokenFor(email);
    return {
      token,
      client: createApiClient({ baseUrl: app.url, getToken: async () => token }),
    };
  };

  beforeAll(async () => {
    app = await getTestApp();
    ada = await userOf(`ada-${randomUUID()}@example.com`);
    bob = await userOf(`bob-${randomUUID()}@example.com`);
    notes.sourdough = await ada.client.notes.create({
      title: `Sourdough ${word('loaf')}`,
      note:
        'Feed the starter the night before. Bake the sourdough at 250 degrees for twenty ' +
        'minutes with the lid on, then 20 minutes without it. Let it cool for an hour.',
      tags: ['baking'],
    });
    notes.garden = await ada.client.notes.create({
      title: 'Garden plan',
      note: 'Plant tomatoes in May next to the basil. Water the beds every morning in July.',
      tags: ['garden'],
    });
    notes.diary = await ada.client.notes.create({
      title: 'Therapy session',
      note: `Talked about the ${word('loaf')} and the difficult week. Private.`,
      tags: ['private'],
    });
    // Bob's note shares every word of Ada's search: it must never reach Ada's answers.
    notes.bobs = await bob.client.notes.create({
      title: `Sourdough ${word('loaf')} for Bob`,
      note: 'Bake the sourdough at 230 degrees. Bob keeps his starter in the fridge.',
    });
    await indexed(ada.client, 3);
    await indexed(bob.client, 1);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
  });

  it('says which provider and models are active, and how each feature works without a model', async () => {
    const settings: AiSettings = await ada.client.ai.settings();
    expect(settings.provider).toBe('local');
    expect(settings.models).toEqual({
      chat: null,
      embeddings: 'local-hashed-v1',
      retrieval: null,
      transcription: null,
      vision: null,
    });
    expect(settings.features).toMatchObject({
      writer: 'unavailable',
      chat: 'extractive',
      summaries: 'extractive',
      imageAnalysis: 'unavailable',
    });
    expect(settings.index).toEqual({ notes: 3, pending: 0, retrievalPending: 0 });
  });

  it('searches by words and by meaning, and never across users', async () => {
    const found: AiHitList = await ada.client.ai.search({ query: `sourdough ${word('loaf')}` });
    const ids = found.items.map((hit) => hit.note.id);
    expect(ids[0]).toBe(notes.sourdough?.id);
    expect(ids).not.toContain(notes.bobs?.id);
    expect(found.items[0]?.sources).toEqual(['fulltext', 'semantic']);
    expect(found.items[0]?.note.snippet).toContain('sourdough');
    // No word of the query is in the note: only meaning (shared stems and trigrams) finds it.
    const bySense = await ada.client.ai.search({ query: 'planting tomato' });
    expect(bySense.items[0]?.note.id).toBe(notes.garden?.id);
    const bobs = await bob.client.ai.search({ query: 'garden tomatoes basil' });
    expect(bobs.items.map((hit) => hit.note.id)).not.toContain(notes.garden?.id);
  });

  it('finds related notes of the same user only', async () => {
    const related = await ada.client.ai.related({ noteId: notes.sourdough?.id as string });
    const ids = related.items.map((hit) => hit.note.id);
    expect(ids).not.toContain(notes.sourdough?.id);
    expect(ids).not.toContain(notes.bobs?.id);
    const bobsView = await app.api(
      bob.token,
      'GET',
      `/ai/note/assist/related?noteId=${notes.sourdough?.id}`,
    );
    expect(bobsView.status).toBe(404);
  });

  it('answers from the notes without a model by quoting them, citing them, and keeps the conversation', async () => {
    const events = await streamed((onEvent) =>
      ada.client.knowledge.answer(
        { question: 'At what temperature do I bake sourdough?' },
        { onEvent },
      ),
    );
    const chat = events.find((event) => event.type === 'chat');
    const done = events.at(-1);
    expect(chat?.type).toBe('chat');
    expect(done).toMatchObject({ type: 'done', method: 'extractive' });
    expect(textOf(events)).toContain('250 degrees');
    const citations = events.filter((event) => event.type === 'citations').at(-1);
    const cited = citations?.type === 'citations' ? citations.notes.map((note) => note.id) : [];
    expect(cited).toContain(notes.sourdough?.id);
    expect(cited).not.toContain(notes.bobs?.id);

    const chatId = chat?.type === 'chat' ? chat.chatId : '';
    const history = await ada.client.knowledge.chats();
    expect(history.items.map((item) => item.id)).toContain(chatId);
    const conversation = await ada.client.knowledge.chat(chatId);
    expect(conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(conversation.messages[1]?.citations.map((note) => note.id)).toContain(
      notes.sourdough?.id,
    );
    // Another user can neither read nor continue nor delete it.
    expect((await app.api(bob.token, 'GET', `/api/knowledge/chat/history/${chatId}`)).status).toBe(
      404,
    );
    const continued = await app.api(bob.token, 'POST', '/api/knowledge/chat/answer', {
      question: 'and then?',
      chatId,
    });
    expect(continued.status).toBe(404);
    expect(
      (await app.api(bob.token, 'DELETE', `/api/knowledge/chat/history/${chatId}`)).status,
    ).toBe(404);

    const draft = await ada.client.knowledge.generate({ chatId });
    expect(draft).toMatchObject({ method: 'extractive' });
    expect(draft.note).toContain('250 degrees');
    expect(draft.note).toContain(`[[${notes.sourdough?.title}]]`);
    expect(draft.sources.map((note) => note.id)).toContain(notes.sourdough?.id);

    await ada.client.knowledge.removeChat(chatId);
    expect((await ada.client.knowledge.chats()).items.map((item) => item.id)).not.toContain(chatId);
  });

  it('answers about a note written a moment ago, before the index holds it', async () => {
    const fresh = await ada.client.notes.create({
      title: 'Parking',
      note: `The car is on level ${word('three')} of the station garage.`,
    });
    const events = await streamed((onEvent) =>
      ada.client.knowledge.answer(
        { question: `What did I write about ${word('three')}?` },
        { onEvent },
      ),
    );
    const citations = events.filter((event) => event.type === 'citations').at(-1);
    const cited = citations?.type === 'citations' ? citations.notes.map((note) => note.id) : [];
    expect(cited).toContain(fresh.id);
    expect(textOf(events)).toContain(`level ${word('three')}`);
    await ada.client.notes.remove(fresh.id);
  });

  it('refuses writing without a model, with a code and a way out, and invents nothing', async () => {
    const response = await app.api(ada.token, 'POST', '/ai/writer/assist', {
      action: 'rewrite',
      text: 'make this better',
    });
    expect(response.status).toBe(501);
    const body = await json<ErrorBody>(response);
    expect(body.error.code).toBe('AI_MODEL_REQUIRED');
    expect(body.error.message).toContain('OPENAI_CHAT_MODEL');
    const invalid = await app.api(ada.token, 'POST', '/ai/writer/assist', { action: 'translate' });
    expect(invalid.status).toBe(400);
  });

  it('summarises a note and a day, and a new note of that day refreshes the day', async () => {
    const summary = await ada.client.ai.summarizeNote(notes.sourdough?.id as string);
    expect(summary).toMatchObject({ method: 'extractive', cached: false });
    expect(summary.summary.length).toBeGreaterThan(0);
    expect((await ada.client.ai.summarizeNote(notes.sourdough?.id as string)).cached).toBe(true);

    const day = (notes.sourdough?.createdAt ?? '').slice(0, 10);
    const first = await ada.client.ai.summarizePeriod('day', { date: day });
    expect(first.notes.map((note) => note.id)).toEqual(
      expect.arrayContaining([notes.sourdough?.id, notes.garden?.id]),
    );
    expect(first.notes.map((note) => note.id)).not.toContain(notes.bobs?.id);
    expect((await ada.client.ai.summarizePeriod('day', { date: day })).cached).toBe(true);

    const added = await ada.client.notes.create({
      title: 'Evening walk',
      note: 'Walked along the river at sunset.',
    });
    await indexed(ada.client, 4);
    const refreshed = await ada.client.ai.summarizePeriod('day', { date: day });
    if (added.createdAt.slice(0, 10) === day) {
      expect(refreshed.cached).toBe(false);
      expect(refreshed.notes.map((note) => note.id)).toContain(added.id);
    }
    await ada.client.notes.remove(added.id);
  });

  it('keeps notes with an excluded tag away from every AI feature', async () => {
    const question = `What did I talk about with the ${word('loaf')}?`;
    const before = await ada.client.ai.search({ query: 'therapy session difficult week' });
    expect(before.items.map((hit) => hit.note.id)).toContain(notes.diary?.id);

    const settings = await ada.client.ai.updateSettings({ excludedTags: ['private'] });
    expect(settings.excludedTags).toEqual(['private']);
    const after = await ada.client.ai.search({ query: 'therapy session difficult week' });
    expect(after.items.map((hit) => hit.note.id)).not.toContain(notes.diary?.id);
    const events = await streamed((onEvent) =>
      ada.client.knowledge.answer({ question }, { onEvent }),
    );
    const cited = events.flatMap((event) =>
      event.type === 'citations' ? event.notes.map((note) => note.id) : [],
    );
    expect(cited).not.toContain(notes.diary?.id);
    expect(textOf(events)).not.toContain('Private');
    const refused = await app.api(ada.token, 'POST', '/ai/note/assist/summarize/note', {
      noteId: notes.diary?.id,
    });
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe('AI_EXCLUDED');

    await ada.client.ai.updateSettings({ excludedTags: [] });
    const back = await ada.client.ai.search({ query: 'therapy session difficult week' });
    expect(back.items.map((hit) => hit.note.id)).toContain(notes.diary?.id);
  });

  it('forgets a deleted note in every answer at once', async () => {
    const doomed = await ada.client.notes.create({
      title: `Quarterly ${word('zephyr')} review`,
      note: `The ${word('zephyr')} numbers are up.`,
    });
    await indexed(ada.client, 4);
    expect((await ada.client.ai.search({ query: word('zephyr') })).items[0]?.note.id).toBe(
      doomed.id,
    );
    await ada.client.notes.remove(doomed.id);
    // Straight after the delete, before the index may have heard of it.
    const found = await ada.client.ai.search({ query: word('zephyr') });
    expect(found.items.map((hit) => hit.note.id)).not.toContain(doomed.id);
    const events = await streamed((onEvent) =>
      ada.client.knowledge.answer(
        { question: `How are the ${word('zephyr')} numbers?` },
        { onEvent },
      ),
    );
    expect(
      events.flatMap((event) => (event.type === 'citations' ? event.notes.map((n) => n.id) : [])),
    ).not.toContain(doomed.id);
  });

  it('drafts a note from content and from a transcription without a model', async () => {
    const draft = await ada.client.generate.byContent({
      content: '# Packing list\n\n- passport\n- charger\n- sourdough starter for the trip',
    });
    expect(draft).toMatchObject({ title: 'Packing list', method: 'extractive' });
    expect(draft.note).toContain('passport');
    const spoken = await ada.client.generate.byTranscription({
      transcription:
        'so we met with the design team today. they want the launch moved to march. ' +
        'we agreed to review the budget next week. anna will send the slides.',
    });
    expect(spoken.note).toContain('## Summary');
    expect(spoken.note).toContain('## Transcript');
    expect(spoken.note).toContain('anna will send the slides');
  });

  it('suggests the tags that the notes nearest a draft share, though the draft never names them', async () => {
    const cleo = await userOf(`cleo-${randomUUID()}@example.com`);
    for (const [title, note] of [
      ['Focaccia', 'Flour, water, salt and olive oil; proof the dough overnight in the fridge.'],
      ['Rye loaf', 'Rye flour, water, salt and the starter; proof the dough for a whole day.'],
    ]) {
      await cleo.client.notes.create({ title, note, tags: ['baking'] });
    }
    await cleo.client.notes.create({ title: 'Standup', note: 'Ship the release.', tags: ['work'] });
    await indexed(cleo.client, 3);
    const draft = await cleo.client.generate.byContent({
      content: 'Spelt dough: flour, water and salt, proof it overnight.',
    });
    expect(draft.tags).toEqual(['baking']);
  });

  it("rebuilds a user's index with `noted reindex`, printing its progress", async () => {
    const { userId } = await ada.client.me();
    const lines: string[] = [];
    const progress = await runReindex({
      env: { NOTED_DATA_DIR: app.noted.context.shared.dataDir },
      userId,
      out: (line) => lines.push(line),
      pollMs: 20,
    });
    expect(progress).toMatchObject({ state: 'finished', done: 3, total: 3 });
    expect(lines.at(-1)).toBe('finished: 3/3 notes (100%)');
    const found = await ada.client.ai.search({ query: `sourdough ${word('loaf')}` });
    expect(found.items[0]?.note.id).toBe(notes.sourdough?.id);
  });

  it('drafts a note for other services over gRPC (GenerateNote), refusing an empty content', async () => {
    const { context } = app.noted;
    const client = createGrpcClient(aiV1.AiService, app.noted.endpoints.ai?.grpc ?? '', {
      service: 'test',
      metadata: callerMetadata(context.shared.internalSecret, 'notes'),
    });
    try {
      const { userId } = await ada.client.me();
      const draft = await client.generateNote({
        userId,
        content: '# Reading list\n\n- Deep Work\n- Atomic Habits',
        source: aiV1.GenerationSource.CONTENT,
      });
      expect(draft).toMatchObject({ title: 'Reading list', method: 'extractive' });
      expect(draft.body).toContain('Atomic Habits');
      await expect(
        client.generateNote({ userId, content: '  ', source: aiV1.GenerationSource.CONTENT }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    } finally {
      client.close();
    }
  });

  it('answers image analysis without a vision model with AI_MODEL_REQUIRED', async () => {
    const response = await app.api(ada.token, 'POST', '/api/note/images/analyze', {
      imageUrls: [`/api/notes/${notes.garden?.id}/images/${'a'.repeat(22)}.webp`],
    });
    expect(response.status).toBe(501);
    expect((await json<ErrorBody>(response)).error.code).toBe('AI_MODEL_REQUIRED');
  });
});
