import { randomUUID } from 'node:crypto';
import knex from 'knex';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, createApiClient, type ApiClient, type Note } from '@noted/api';
import { startFakeOpenAi, type FakeChatRequest, type FakeOpenAi } from '@noted/testing';
import { indexed, streamed, textOf } from './test/ai.js';
import { getTestApp, infraLabel, testInfra, type TestApp } from './test/app.js';

const contentOf = (message: FakeChatRequest['messages'][number] | undefined) =>
  typeof message?.content === 'string'
    ? message.content
    : (message?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The knowledge chat's answering request (not its rewording of the question). */
const isAnswer = (request: FakeChatRequest) =>
  contentOf(request.messages[0]).includes('knowledge assistant of Noted');

describe(`ai with an OpenAI-compatible provider (${infraLabel})`, () => {
  let fake: FakeOpenAi;
  let app: TestApp;
  let ada: ApiClient;
  let bob: ApiClient;
  const run = randomUUID().replaceAll('-', '').slice(0, 6);
  const notes: Record<string, Note> = {};
  const chats: FakeChatRequest[] = [];
  /** Every text the provider was ever sent, to prove what was never sent. */
  const sentToProvider = () => JSON.stringify(fake.requests.map((request) => request.body));

  const clientOf = async (email: string) => {
    const token = await app.tokenFor(email);
    return createApiClient({ baseUrl: app.url, getToken: async () => token });
  };

  /**
   * On a shared Postgres the AI index gets a database of its own: suites running beside this
   * one index with the local model, and a repair loop would re-embed this suite's notes with it.
   */
  const ownAiDatabase = async (): Promise<Record<string, string>> => {
    if (!testInfra.databaseUrl) return {};
    const name = `noted_ai_${run}`;
    const admin = knex({ client: 'pg', connection: testInfra.databaseUrl });
    try {
      await admin.raw('create database ??', [name]);
    } finally {
      await admin.destroy();
    }
    const url = new URL(testInfra.databaseUrl);
    url.pathname = `/${name}`;
    dropAiDatabase = async () => {
      const cleanup = knex({ client: 'pg', connection: testInfra.databaseUrl });
      await cleanup
        .raw('drop database if exists ?? with (force)', [name])
        .finally(() => cleanup.destroy());
    };
    return { AI_DATABASE_URL: url.href };
  };
  let dropAiDatabase = async () => {};

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test' });
    app = await getTestApp({
      env: {
        ...(await ownAiDatabase()),
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_CHAT_MODEL: 'chat-model',
        OPENAI_EMBEDDING_MODEL: 'embedding-model',
        OPENAI_VISION_MODEL: 'vision-model',
        OPENAI_MAX_RETRIES: '2',
      },
    });
    ada = await clientOf(`ada-${randomUUID()}@example.com`);
    bob = await clientOf(`bob-${randomUUID()}@example.com`);
    await ada.ai.updateSettings({ excludedTags: ['private'] });
    notes.launch = await ada.notes.create({
      title: 'Atlas launch meeting',
      note: `We moved the Atlas launch to March ${run}. Mira owns the checklist.`,
    });
    notes.secret = await ada.notes.create({
      title: 'Diary',
      note: `secret-${run} feelings about the launch`,
      tags: ['private'],
    });
    notes.bobs = await bob.notes.create({
      title: 'Atlas launch (Bob)',
      note: `Bob thinks the Atlas launch is in June ${run}.`,
    });
    await indexed(ada, 1);
    await indexed(bob, 1);
  }, 120_000);

  beforeEach(() => {
    chats.length = 0;
    fake.reply((request) => {
      chats.push(request);
      return `Answer to: ${contentOf(request.messages.at(-1))}`;
    });
  });

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
    await dropAiDatabase();
  });

  it('indexes with the configured embedding model and never sends an excluded note', async () => {
    const embedded = fake.requests.filter((request) => request.path === '/v1/embeddings');
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.every((request) => request.body.model === 'embedding-model')).toBe(true);
    expect(sentToProvider()).toContain(`March ${run}`);
    expect(sentToProvider()).not.toContain(`secret-${run}`);
    const settings = await ada.ai.settings();
    expect(settings).toMatchObject({
      provider: 'openai',
      models: { chat: 'chat-model', embeddings: 'embedding-model', vision: 'vision-model' },
      features: { writer: 'model', chat: 'model', search: 'model', transcription: 'unavailable' },
    });
  });

  it('streams the writer token by token and counts the tokens against the user', async () => {
    fake.reply((request) => {
      chats.push(request);
      return { text: 'A clearer sentence.', chunks: ['A ', 'clearer ', 'sentence.'] };
    });
    const before = (await ada.ai.settings()).usage;
    const events = await streamed((onEvent) =>
      ada.ai.assist(
        { action: 'rewrite', noteId: notes.launch?.id as string, text: 'launch moved march' },
        { onEvent },
      ),
    );
    expect(
      events.filter((event) => event.type === 'token').map((event) => event.type),
    ).toHaveLength(3);
    expect(textOf(events)).toBe('A clearer sentence.');
    expect(events.at(-1)).toMatchObject({ type: 'done', method: 'model', model: 'chat-model' });
    const sent = chats[0];
    expect(sent?.model).toBe('chat-model');
    expect(sent?.stream).toBe(true);
    expect(contentOf(sent?.messages.at(-1))).toContain('launch moved march');
    expect(contentOf(sent?.messages.at(-1))).toContain(`March ${run}`);
    // Usage is written beside the answer, not before it: wait for it to land.
    let after = (await ada.ai.settings()).usage;
    for (
      let attempt = 0;
      attempt < 50 && after.completionTokens === before.completionTokens;
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = (await ada.ai.settings()).usage;
    }
    expect(after.completionTokens).toBeGreaterThan(before.completionTokens);
    expect(after.promptTokens).toBeGreaterThan(before.promptTokens);
  });

  it('stops generation upstream when the user stops the stream', async () => {
    fake.reply(() => ({
      text: 'one two three four five six seven eight nine ten',
      delayMsPerChunk: 150,
    }));
    const controller = new AbortController();
    const tokens: string[] = [];
    await expect(
      ada.ai.askAi(
        { question: 'what next?', text: 'draft' },
        {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'token') {
              tokens.push(event.text);
              controller.abort();
            }
          },
        },
      ),
    ).rejects.toThrow();
    expect(tokens.length).toBeLessThan(10);
    for (let attempt = 0; attempt < 100 && fake.cancelled === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const last = fake.requests.filter((request) => request.path === '/v1/chat/completions').at(-1);
    expect(last?.cancelled).toBe(true);
    expect(last?.chunksSent).toBeLessThan(10);
  });

  it("answers from the user's own notes only, citing the passages the model used", async () => {
    fake.reply((request) => {
      chats.push(request);
      return 'The launch moved to March [1].';
    });
    const events = await streamed((onEvent) =>
      ada.knowledge.answer({ question: 'When is the Atlas launch?' }, { onEvent }),
    );
    expect(textOf(events)).toBe('The launch moved to March [1].');
    const system = contentOf(chats.find(isAnswer)?.messages[0]);
    expect(system).toContain(`March ${run}`);
    expect(system).not.toContain(`June ${run}`);
    expect(system).not.toContain(`secret-${run}`);
    const final = events.filter((event) => event.type === 'citations').at(-1);
    expect(final).toEqual({
      type: 'citations',
      notes: [{ id: notes.launch?.id, title: 'Atlas launch meeting' }],
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', method: 'model' });
  });

  it('says the notes do not say, citing nothing, when the model finds no answer in the passages', async () => {
    fake.reply((request) => {
      chats.push(request);
      return isAnswer(request) ? 'NOT_IN_NOTES.' : 'The launch date of the Atlas project.';
    });
    const events = await streamed((onEvent) =>
      ada.knowledge.answer({ question: 'Who catered the Atlas launch party?' }, { onEvent }),
    );
    expect(contentOf(chats.find(isAnswer)?.messages[0])).toContain(
      'reply with exactly NOT_IN_NOTES',
    );
    // The marker is never shown: the chat's own words are.
    expect(textOf(events)).toBe('Your notes do not seem to say anything about this.');
    expect(events.filter((event) => event.type === 'citations').at(-1)).toEqual({
      type: 'citations',
      notes: [],
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', method: 'model' });
  });

  it('searches for a question also by its rewording, as a note would say it, and by the question alone when rewording fails', async () => {
    fake.reply((request) => {
      chats.push(request);
      return isAnswer(request) ? 'Mira [1].' : `Mira owns the launch checklist ${run}.`;
    });
    const embeddingsBefore = fake.requests.length;
    const events = await streamed((onEvent) =>
      ada.knowledge.answer({ question: 'Who is in charge of the list?' }, { onEvent }),
    );
    const [rewording, answer] = chats;
    expect(contentOf(rewording?.messages[0])).toContain('as a note answering it would be worded');
    expect(contentOf(rewording?.messages.at(-1))).toBe('Who is in charge of the list?');
    expect(contentOf(answer?.messages[0])).toContain(`March ${run}`);
    // The question and its rewording are embedded together.
    const embedded = fake.requests
      .slice(embeddingsBefore)
      .filter((request) => request.path === '/v1/embeddings')
      .map((request) => request.body.input);
    expect(embedded).toContainEqual([
      'Who is in charge of the list?',
      `Mira owns the launch checklist ${run}.`,
    ]);
    expect(textOf(events)).toBe('Mira [1].');

    // The rewording fails (and is retried) three times: the question is searched as asked.
    chats.length = 0;
    fake.failNext(3, 500);
    const fallback = await streamed((onEvent) =>
      ada.knowledge.answer({ question: 'Who is in charge of the list?' }, { onEvent }),
    );
    expect(chats.filter(isAnswer)).toHaveLength(1);
    expect(textOf(fallback)).toBe('Mira [1].');
    expect(fallback.at(-1)).toMatchObject({ type: 'done', method: 'model' });
  });

  it('drafts notes with the model as JSON, keeping only valid tags', async () => {
    fake.reply((request) => {
      chats.push(request);
      return JSON.stringify({
        title: 'Trip',
        note: '## Packing\n\n- passport',
        tags: ['travel', 'not a tag', '#packing'],
      });
    });
    const draft = await ada.generate.byContent({ content: 'passport, charger' });
    expect(draft).toEqual({
      title: 'Trip',
      note: '## Packing\n\n- passport',
      tags: ['travel', 'packing'],
      sources: [],
      method: 'model',
      model: 'chat-model',
    });
    expect(chats[0]?.body.response_format).toEqual({ type: 'json_object' });
    fake.reply(() => 'not json at all');
    await expect(ada.generate.byContent({ content: 'x' })).rejects.toMatchObject({
      code: 'AI_PROVIDER_FAILED',
    });
  });

  it('searches, relates, summarises and drafts with the configured models', async () => {
    const embeddingsBefore = fake.requests.filter((r) => r.path === '/v1/embeddings').length;
    const found = await ada.ai.search({ query: 'Atlas launch date' });
    expect(found.items[0]?.note.id).toBe(notes.launch?.id);
    expect(found.items.map((hit) => hit.note.id)).not.toContain(notes.bobs?.id);
    const embedded = fake.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embedded.length).toBeGreaterThan(embeddingsBefore);
    expect(embedded.at(-1)?.body).toMatchObject({
      model: 'embedding-model',
      input: ['Atlas launch date'],
    });
    const related = await ada.ai.related({ noteId: notes.launch?.id as string });
    expect(related.items.map((hit) => hit.note.id)).not.toContain(notes.launch?.id);

    fake.reply((request) => {
      chats.push(request);
      return 'The launch moved to March; Mira owns the checklist.';
    });
    const summary = await ada.ai.summarizeNote(notes.launch?.id as string);
    expect(summary).toMatchObject({
      method: 'model',
      model: 'chat-model',
      summary: 'The launch moved to March; Mira owns the checklist.',
    });
    const day = await ada.ai.summarizePeriod('day', {
      date: (notes.launch?.createdAt ?? '').slice(0, 10),
    });
    expect(day).toMatchObject({ method: 'model', model: 'chat-model' });
    expect(day.notes.map((note) => note.id)).toContain(notes.launch?.id);
    // The excluded note is neither summarised nor sent.
    expect(day.notes.map((note) => note.id)).not.toContain(notes.secret?.id);
    expect(sentToProvider()).not.toContain(`secret-${run}`);

    fake.reply((request) => {
      chats.push(request);
      return JSON.stringify({
        title: 'Launch call',
        note: 'Launch moved to March.',
        tags: ['atlas'],
      });
    });
    const spoken = await ada.generate.byTranscription({
      transcription: 'um so the launch is in march',
    });
    expect(spoken).toMatchObject({ title: 'Launch call', tags: ['atlas'], method: 'model' });
    expect(contentOf(chats.at(-1)?.messages.at(-1))).toContain('transcription of speech');

    const events = await streamed((onEvent) =>
      ada.knowledge.answer({ question: 'Who owns the checklist?' }, { onEvent }),
    );
    const chat = events.find((event) => event.type === 'chat');
    const draft = await ada.knowledge.generate({
      chatId: chat?.type === 'chat' ? chat.chatId : '',
    });
    expect(draft).toMatchObject({ title: 'Launch call', method: 'model' });
    expect(draft.sources.map((note) => note.id)).toContain(notes.launch?.id);
  });

  it('reads a captured photo with the vision model, sending the image itself', async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#fafafa' },
    })
      .png()
      .toBuffer();
    const transcript = `Shopping list ${run}: oat milk, rye bread. A note on a fridge door.`;
    fake.reply((request) => {
      chats.push(request);
      return request.model === 'vision-model'
        ? transcript
        : JSON.stringify({ title: 'Fridge list', note: transcript, tags: ['shopping'] });
    });
    const created = await ada.capture.image(new Blob([png]), 'fridge.png');
    let note: Note = created;
    for (let tries = 0; note.capture?.status === 'processing' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      note = await ada.notes.get(created.id);
    }
    expect(note.capture).toMatchObject({
      status: 'ready',
      method: 'vision',
      model: 'vision-model',
    });
    expect(note.note).toContain(`Shopping list ${run}: oat milk, rye bread.`);
    expect(note.title).toBe('Fridge list');
    const asked = chats.find((request) => request.model === 'vision-model');
    const parts = asked?.messages[0]?.content;
    // The photo goes as a data URL of the kept image (WebP), with the instruction to transcribe.
    expect(Array.isArray(parts)).toBe(true);
    const image = Array.isArray(parts)
      ? parts.find((part) => part.type === 'image_url')
      : undefined;
    expect(image?.type === 'image_url' && image.image_url.url).toMatch(/^data:image\/webp;base64,/);
    expect(contentOf(asked?.messages[0])).toMatch(/Transcribe every piece of text/);

    // A chat model answering no note does not cost the text the vision model read.
    fake.reply((request) => (request.model === 'vision-model' ? transcript : 'not a note'));
    const second = await ada.capture.image(new Blob([png]), 'fridge.png');
    let kept: Note = second;
    for (let tries = 0; kept.capture?.status === 'processing' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      kept = await ada.notes.get(second.id);
    }
    expect(kept.capture).toMatchObject({ status: 'ready', method: 'vision' });
    expect(kept.note).toContain(`Shopping list ${run}: oat milk, rye bread.`);
    chats.length = 0;
  });

  it('describes an image of a note with the vision model', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const { image } = await ada.images.upload(notes.launch?.id as string, new Blob([png]), 'a.png');
    fake.reply((request) => {
      chats.push(request);
      return 'A blue square.';
    });
    const analysis = await ada.generate.analyzeImages({ imageUrls: [image.url] });
    expect(analysis.images).toEqual([{ imageUrl: image.url, description: 'A blue square.' }]);
    expect(analysis.model).toBe('vision-model');
    expect(chats[0]?.model).toBe('vision-model');
    const parts = chats[0]?.messages[0]?.content;
    expect(
      Array.isArray(parts) &&
        parts.some(
          (part) => part.type === 'image_url' && part.image_url.url.startsWith('data:image/'),
        ),
    ).toBe(true);
    // Bob cannot have Ada's image described.
    await expect(bob.generate.analyzeImages({ imageUrls: [image.url] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('reports a provider that keeps failing as AI_PROVIDER_FAILED, after retrying', async () => {
    const before = fake.requests.length;
    fake.failNext(3, 503);
    const failure = await ada.ai
      .summarizeNote(notes.launch?.id as string)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('AI_PROVIDER_FAILED');
    expect(fake.requests.length - before).toBe(3);
  });
});
