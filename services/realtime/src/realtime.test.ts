import { randomUUID } from 'node:crypto';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { LiveMessage, LiveToken } from '@noted/api';
import { createMemoryBus, type EventBus, type ListenOptions } from '@noted/events';
import { IDENTITY_HEADER, createLogger, signIdentity } from '@noted/kit';
import { noteEvents, reviewEvents, userEventHeaders, userEvents } from '@noted/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { realtimeConfigFrom, realtimeConfigSchema, type RealtimeConfig } from './config.js';
import { drops } from './metrics.js';
import { startRealtime, type RunningRealtime } from './service.js';

const logger = createLogger({ level: 'silent' });
const secret = 's'.repeat(48);
const publicUrl = 'http://noted.test';

const configOf = (overrides: Partial<RealtimeConfig> = {}): RealtimeConfig => ({
  ...realtimeConfigFrom(
    realtimeConfigSchema.parse({ REALTIME_HTTP_PORT: '0', REALTIME_GRPC_ADDR: '127.0.0.1:0' }),
    { host: '127.0.0.1', internalSecret: secret, publicUrl },
  ),
  ...overrides,
});

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

const start = async (bus: EventBus, overrides: Partial<RealtimeConfig> = {}) => {
  const realtime = await startRealtime(configOf(overrides), { bus, logger });
  running.push(realtime);
  return realtime;
};

const memoryBus = () => {
  const bus = createMemoryBus({ service: 'test', logger });
  running.push({ stop: () => bus.close() });
  return bus;
};

const tokenFor = async (realtime: RunningRealtime, userId: string): Promise<LiveToken> => {
  const identity = await signIdentity(secret, {
    userId,
    sub: `sub-${userId}`,
    email: `${userId}@example.com`,
    name: 'Test',
  });
  const answer = await fetch(`${realtime.httpUrl}/ws/token`, {
    method: 'POST',
    headers: { [IDENTITY_HEADER]: identity },
  });
  expect(answer.status).toBe(201);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  return (await answer.json()) as LiveToken;
};

interface Client {
  socket: WebSocket;
  messages: LiveMessage[];
  closed: Promise<number>;
}

/** A connection to `path`; resolves once open (with what came before), or rejects with the status. */
const connect = (
  realtime: RunningRealtime,
  path: string,
  options: { origin?: string; autoPong?: boolean } = {},
): Promise<Client> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(`${realtime.httpUrl.replace('http', 'ws')}${path}`, {
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      autoPong: options.autoPong ?? true,
    });
    const messages: LiveMessage[] = [];
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
    socket.once('open', () => {
      running.push({ stop: async () => socket.terminate() });
      resolve({ socket, messages, closed });
    });
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });

const connectUser = async (realtime: RunningRealtime, userId: string) => {
  const { url } = await tokenFor(realtime, userId);
  const client = await connect(realtime, url, { origin: publicUrl });
  await waitFor(() => client.messages.length >= 2);
  return client;
};

const waitFor = async (condition: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

const noteOf = (userId: string, title = 'Groceries') => ({
  id: randomUUID(),
  userId,
  title,
  body: 'eggs, milk',
  tags: ['home'],
  images: [],
  isPinned: false,
  createdAt: timestampNow(),
  updatedAt: timestampNow(),
  publicId: '',
});

const publishUpdated = (bus: EventBus, note: ReturnType<typeof noteOf>, id = randomUUID()) =>
  bus.publish(
    noteEvents.updated.subject,
    noteEvents.updated.encode({ eventId: id, occurredAt: timestampNow(), note }),
    { id, headers: userEventHeaders(note.userId) },
  );

describe('realtime service', () => {
  it("closes every socket of a user who deleted the account (4001), refuses it new ones, and nobody else's", async () => {
    const bus = memoryBus();
    const realtime = await start(bus);
    const leaving = randomUUID();
    const staying = randomUUID();
    const tabs = [await connectUser(realtime, leaving), await connectUser(realtime, leaving)];
    const other = await connectUser(realtime, staying);
    // A token issued before the deletion, as a third tab would bring it a moment later.
    const early = await tokenFor(realtime, leaving);
    await bus.publish(
      userEvents.deleted.subject,
      userEvents.deleted.encode({ eventId: 'x', userId: leaving, authId: `sub-${leaving}` }),
      { id: randomUUID(), headers: userEventHeaders(leaving) },
    );
    expect(await Promise.all(tabs.map((tab) => tab.closed))).toEqual([4001, 4001]);
    await settle();
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
    const counted = (await drops.get()).values.find(
      (value) => value.labels.reason === 'account_deleted',
    );
    expect(counted?.value).toBeGreaterThanOrEqual(2);
    await expect(connect(realtime, early.url, { origin: publicUrl })).rejects.toThrow('HTTP 401');
    await connectUser(realtime, staying);
  });

  it('answers a signed-in user a token, and a plain GET of /ws with 426', async () => {
    const realtime = await start(memoryBus());
    const userId = randomUUID();
    const token = await tokenFor(realtime, userId);
    expect(token.url).toBe(`/ws?token=${encodeURIComponent(token.token)}`);
    expect(token.token.startsWith(`${userId}.`)).toBe(true);
    expect(Date.parse(token.expiresAt)).toBeGreaterThan(Date.now());

    const anonymous = await fetch(`${realtime.httpUrl}/ws/token`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const plain = await fetch(`${realtime.httpUrl}${token.url}`);
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({ error: { code: 'UPGRADE_REQUIRED' } });
  });

  it('greets a connection with connection and welcome, as the spec names them', async () => {
    const realtime = await start(memoryBus());
    const client = await connectUser(realtime, randomUUID());
    expect(client.messages[0]).toEqual({ type: 'connection', status: 'success' });
    expect(client.messages[1]).toMatchObject({ type: 'welcome', message: expect.any(String) });
  });

  it('refuses before the upgrade: no token, a bad one, a foreign origin, another path', async () => {
    const realtime = await start(memoryBus());
    const { token } = await tokenFor(realtime, randomUUID());
    const [userId, stamp, signature] = token.split('.') as [string, string, string];
    const refused = (path: string, origin = publicUrl) =>
      connect(realtime, path, { origin }).then(
        () => 'opened',
        (error: Error) => error.message,
      );
    expect(await refused('/ws')).toBe('HTTP 401');
    expect(await refused(`/ws?token=${userId}.${stamp}.${'A'.repeat(43)}`)).toBe('HTTP 401');
    expect(await refused(`/ws?token=${randomUUID()}.${stamp}.${signature}`)).toBe('HTTP 401');
    expect(await refused(`/ws?token=${token.slice(0, -2)}`)).toBe('HTTP 401');
    expect(await refused(`/ws?token=${encodeURIComponent(token)}`, 'https://evil.example')).toBe(
      'HTTP 403',
    );
    expect(await refused(`/other?token=${encodeURIComponent(token)}`)).toBe('HTTP 404');
    expect(await refused(`/ws?token=${encodeURIComponent(token)}`)).toBe('opened');
  });

  it('refuses an expired token', async () => {
    const realtime = await start(memoryBus(), { tokenTtlMs: 50 });
    const { url } = await tokenFor(realtime, randomUUID());
    await settle(120);
    await expect(connect(realtime, url, { origin: publicUrl })).rejects.toThrow('HTTP 401');
  });

  it("pushes a note's change to every socket of its user, and to no one else", async () => {
    const bus = memoryBus();
    const realtime = await start(bus);
    const [owner, other] = [randomUUID(), randomUUID()];
    const tabs = [await connectUser(realtime, owner), await connectUser(realtime, owner)];
    const stranger = await connectUser(realtime, other);
    const note = noteOf(owner);
    await publishUpdated(bus, note);
    await waitFor(() => tabs.every((tab) => tab.messages.length === 3));
    for (const tab of tabs) {
      expect(tab.messages[2]).toMatchObject({
        type: 'noteUpdated',
        change: 'updated',
        note: {
          id: note.id,
          title: 'Groceries',
          note: 'eggs, milk',
          tags: ['home'],
          publicId: null,
        },
      });
    }
    await bus.publish(
      noteEvents.deleted.subject,
      noteEvents.deleted.encode({ eventId: 'd', noteId: note.id, userId: owner }),
      { id: randomUUID(), headers: userEventHeaders(owner) },
    );
    await waitFor(() => tabs.every((tab) => tab.messages.length === 4));
    expect(tabs[0]!.messages[3]).toEqual({ type: 'noteDeleted', noteId: note.id });
    await settle();
    expect(stranger.messages).toHaveLength(2);
  });

  it('pushes the notes that fell due as noteReview', async () => {
    const bus = memoryBus();
    const realtime = await start(bus);
    const userId = randomUUID();
    const client = await connectUser(realtime, userId);
    const due = [noteOf(userId, 'Spanish verbs'), noteOf(userId, 'Kubernetes probes')];
    const id = randomUUID();
    await bus.publish(
      reviewEvents.due.subject,
      reviewEvents.due.encode({ eventId: id, occurredAt: timestampNow(), userId, notes: due }),
      { id, headers: userEventHeaders(userId) },
    );
    await waitFor(() => client.messages.length === 3);
    const message = client.messages[2]!;
    expect(message.type).toBe('noteReview');
    if (message.type === 'noteReview') {
      expect(message.notes.map((note) => note.title)).toEqual([
        'Spanish verbs',
        'Kubernetes probes',
      ]);
    }
  });

  it('pushes an event heard twice (a relay that published it again) once per socket', async () => {
    // A bus whose listeners hear every message twice, as a NATS listener hears a republished
    // event that the stream stored once.
    const inner = memoryBus();
    const doubling: EventBus = {
      ...inner,
      listen: (options: ListenOptions) =>
        inner.listen({
          ...options,
          handler: (message) => {
            options.handler(message);
            options.handler(message);
          },
        }),
    };
    const realtime = await start(doubling);
    const userId = randomUUID();
    const client = await connectUser(realtime, userId);
    await publishUpdated(inner, noteOf(userId));
    await waitFor(() => client.messages.length === 3);
    await settle();
    expect(client.messages).toHaveLength(3);
  });

  it("reaches a user's sockets on two replicas sharing one bus", async () => {
    const bus = memoryBus();
    const [one, two] = [await start(bus), await start(bus)];
    const userId = randomUUID();
    const [first, second] = [await connectUser(one, userId), await connectUser(two, userId)];
    await publishUpdated(bus, noteOf(userId));
    await waitFor(() => first.messages.length === 3 && second.messages.length === 3);
  });

  it('caps connections per user and per replica', async () => {
    const realtime = await start(memoryBus(), { maxPerUser: 2, maxConnections: 3 });
    const [busy, other, third] = [randomUUID(), randomUUID(), randomUUID()];
    await connectUser(realtime, busy);
    await connectUser(realtime, busy);
    await expect(connectUser(realtime, busy)).rejects.toThrow('HTTP 503');
    await connectUser(realtime, other);
    await expect(connectUser(realtime, third)).rejects.toThrow('HTTP 503');
  });

  it('closes a socket that stops answering pings', async () => {
    const realtime = await start(memoryBus(), { pingMs: 50 });
    const { url } = await tokenFor(realtime, randomUUID());
    const silent = await connect(realtime, url, { origin: publicUrl, autoPong: false });
    const answering = await connectUser(realtime, randomUUID());
    expect(await silent.closed).toBe(1006);
    await settle(200);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a socket that does not read rather than buffer for it without bound', async () => {
    const bus = memoryBus();
    const realtime = await start(bus, { maxBufferedBytes: 64 * 1024 });
    const userId = randomUUID();
    const reader = await connectUser(realtime, userId);
    const stalled = await connectUser(realtime, userId);
    // The client stops reading: the kernel's buffers fill, then the server's.
    stalled.socket.pause();
    const big = { ...noteOf(userId), body: 'x'.repeat(200_000) };
    const slowDrops = async () =>
      (await drops.get()).values.find((value) => value.labels.reason === 'slow')?.value ?? 0;
    const before = await slowDrops();
    for (let n = 0; n < 500 && (await slowDrops()) === before; n += 1) {
      await publishUpdated(bus, big);
      await settle(2);
    }
    expect(await slowDrops()).toBe(before + 1);
    // Once it reads again it finds the end of the connection after what was sent.
    stalled.socket.resume();
    await stalled.closed;
    await waitFor(() => reader.messages.length > 2);
    expect(reader.socket.readyState).toBe(WebSocket.OPEN);
  });
});
