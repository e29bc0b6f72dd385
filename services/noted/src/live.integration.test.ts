import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { LiveMessage, LiveToken, Note } from '@noted/api';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

interface Live {
  messages: LiveMessage[];
  socket: WebSocket;
}

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe(`the live connection through the gateway (${infraLabel})`, () => {
  let app: TestApp;
  let ada: string;
  let bob: string;
  const open: WebSocket[] = [];

  const connect = async (token: string, origin?: string): Promise<Live> => {
    const { url } = await json<LiveToken>(app.api(token, 'POST', '/ws/token'));
    const socket = new WebSocket(`${app.url.replace('http', 'ws')}${url}`, {
      origin: origin ?? app.url,
    });
    open.push(socket);
    const messages: LiveMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`HTTP ${res.statusCode}`)),
      );
      socket.once('error', reject);
    });
    await waitFor(() => messages.length >= 2);
    return { messages, socket };
  };

  beforeAll(async () => {
    app = await getTestApp();
    ada = await app.tokenFor(`ada-${randomUUID()}@example.com`);
    bob = await app.tokenFor(`bob-${randomUUID()}@example.com`);
  }, 120_000);

  let stopped = false;
  afterAll(async () => {
    for (const socket of open) socket.terminate();
    if (!stopped) await app?.stop();
  });

  it('gives a token only to a signed-in user', async () => {
    expect((await app.api(undefined, 'POST', '/ws/token')).status).toBe(401);
    const token = await json<LiveToken>(app.api(ada, 'POST', '/ws/token'));
    expect(token.url).toMatch(/^\/ws\?token=/);
    const plain = await app.api(undefined, 'GET', token.url);
    expect(plain.status).toBe(426);
  });

  it("pushes a note's creation, changes and deletion to its owner's tabs within a second", async () => {
    const tabs = [await connect(ada), await connect(ada)];
    const stranger = await connect(bob);
    expect(tabs[0]!.messages.slice(0, 2).map((message) => message.type)).toEqual([
      'connection',
      'welcome',
    ]);

    const started = Date.now();
    const note = await json<Note>(
      app.api(ada, 'POST', '/api/note/create/direct', { title: 'Live', note: 'first' }),
    );
    await waitFor(() => tabs.every((tab) => tab.messages.length >= 3));
    expect(Date.now() - started).toBeLessThan(1_000);
    for (const tab of tabs) {
      expect(tab.messages[2]).toMatchObject({
        type: 'noteUpdated',
        change: 'created',
        note: { id: note.id, title: 'Live', note: 'first' },
      });
    }

    await app.api(ada, 'PUT', `/api/notes/${note.id}`, { note: 'second' });
    await waitFor(() => tabs.every((tab) => tab.messages.length >= 4));
    expect(tabs[1]!.messages[3]).toMatchObject({
      type: 'noteUpdated',
      change: 'updated',
      note: { id: note.id, note: 'second' },
    });

    await app.api(ada, 'DELETE', `/api/notes/${note.id}`);
    await waitFor(() => tabs.every((tab) => tab.messages.length >= 5));
    expect(tabs[0]!.messages[4]).toEqual({ type: 'noteDeleted', noteId: note.id });
    expect(stranger.messages.map((message) => message.type)).toEqual(['connection', 'welcome']);
  });

  it('refuses a page of another site, and any other upgrade', async () => {
    await expect(connect(ada, 'https://evil.example')).rejects.toThrow('HTTP 403');
    const other = new WebSocket(`${app.url.replace('http', 'ws')}/api/notes`);
    const status = await new Promise<number>((resolve) => {
      other.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      other.once('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });

  it('stops with live connections open, ending them (the browser connects again)', async () => {
    const { socket } = await connect(ada);
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    const started = Date.now();
    stopped = true;
    await app.stop();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await closed).toBeGreaterThan(0);
  }, 20_000);
});
