import { randomUUID } from 'node:crypto';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { LiveMessage, LiveToken } from '@noted/api';
import { createNatsBus, type EventBus } from '@noted/events';
import { IDENTITY_HEADER, createLogger, signIdentity } from '@noted/kit';
import { noteEvents, userEventHeaders } from '@noted/proto';
import { infraUrl } from '@noted/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { realtimeConfigFrom, realtimeConfigSchema } from './config.js';
import { startRealtime, type RunningRealtime } from './service.js';

const natsUrl = infraUrl('NATS JetStream', 'TEST_NATS_URL');
const logger = createLogger({ level: 'silent' });
const secret = 'r'.repeat(48);
const publicUrl = 'http://noted.test';

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.skipIf(!natsUrl)('realtime replicas on one NATS', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  /** One replica: its own NATS connection (as a pod has), its own HTTP port. */
  const replica = async (): Promise<RunningRealtime> => {
    const bus = await createNatsBus({ url: natsUrl!, service: 'realtime-test', logger });
    const config = realtimeConfigFrom(
      realtimeConfigSchema.parse({ REALTIME_HTTP_PORT: '0', REALTIME_GRPC_ADDR: '127.0.0.1:0' }),
      { host: '127.0.0.1', internalSecret: secret, publicUrl },
    );
    const realtime = await startRealtime(config, { bus, logger });
    stops.push(
      () => bus.close(),
      () => realtime.stop(),
    );
    return realtime;
  };

  const connect = async (realtime: RunningRealtime, userId: string) => {
    const identity = await signIdentity(secret, {
      userId,
      sub: userId,
      email: `${userId}@example.com`,
      name: 'Replica test',
    });
    const { url } = (await (
      await fetch(`${realtime.httpUrl}/ws/token`, {
        method: 'POST',
        headers: { [IDENTITY_HEADER]: identity },
      })
    ).json()) as LiveToken;
    const socket = new WebSocket(`${realtime.httpUrl.replace('http', 'ws')}${url}`, {
      origin: publicUrl,
    });
    stops.push(async () => socket.terminate());
    const messages: LiveMessage[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveMessage));
    await waitFor(() => messages.length >= 2);
    return messages;
  };

  it("reaches a user's sockets on both replicas, once each, a republished event included", async () => {
    const [one, two] = [await replica(), await replica()];
    const userId = randomUUID();
    const onOne = await connect(one, userId);
    const onTwo = await connect(two, userId);
    const publisher: EventBus = await createNatsBus({
      url: natsUrl!,
      service: 'notes-test',
      logger,
    });
    stops.push(() => publisher.close());

    const eventId = randomUUID();
    const note = {
      id: randomUUID(),
      userId,
      title: 'Replicated',
      body: 'on two pods',
      tags: [],
      images: [],
      isPinned: false,
      createdAt: timestampNow(),
      updatedAt: timestampNow(),
      publicId: '',
    };
    const data = noteEvents.updated.encode({ eventId, occurredAt: timestampNow(), note });
    // The outbox relay publishing the same event again (a crash between publish and mark):
    // the stream keeps one copy, every listener hears both.
    for (let copy = 0; copy < 2; copy += 1) {
      await publisher.publish(noteEvents.updated.subject, data, {
        id: eventId,
        headers: userEventHeaders(userId),
      });
    }
    await waitFor(() => onOne.length >= 3 && onTwo.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const messages of [onOne, onTwo]) {
      expect(messages.map((message) => message.type)).toEqual([
        'connection',
        'welcome',
        'noteUpdated',
      ]);
    }
  });
});
