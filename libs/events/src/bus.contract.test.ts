import { randomUUID } from 'node:crypto';
import {
  createServer,
  connect as tcpConnect,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createLogger, eventsTotal } from '@noted/kit';
import { infraUrl } from '@noted/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { BusMessage, EventBus, Subscription } from './bus.js';
import { createMemoryBus } from './memory.js';
import { createNatsBus } from './nats.js';

const logger = createLogger({ level: 'silent' });
const natsUrl = infraUrl('NATS JetStream', 'TEST_NATS_URL');
// Each run gets its own stream and subject prefix so reruns never see old messages.
const run = randomUUID().slice(0, 8);
const natsStream = `TEST_${run}`;
const natsPrefix = `test${run}`;

interface Adapter {
  name: string;
  skip: boolean;
  prefix: string;
  open(): Promise<EventBus>;
}

const adapters: Adapter[] = [
  {
    name: 'memory',
    skip: false,
    prefix: 'noted',
    open: async () => createMemoryBus({ service: 'contract', logger }),
  },
  {
    name: 'nats',
    skip: !natsUrl,
    prefix: natsPrefix,
    open: () =>
      createNatsBus({
        url: natsUrl ?? '',
        service: 'contract',
        logger,
        stream: natsStream,
        subjects: [`${natsPrefix}.>`],
      }),
  },
];

afterAll(async () => {
  if (!natsUrl) return;
  const nc = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(natsStream).catch(() => false);
  await nc.close();
});

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe.each(adapters)('event bus contract: $name', (adapter) => {
  describe.skipIf(adapter.skip)(
    adapter.skip ? 'skipped: TEST_NATS_URL is not set' : 'behaviour',
    () => {
      const open: EventBus[] = [];
      const openBus = async () => {
        const bus = await adapter.open();
        open.push(bus);
        return bus;
      };
      // A fresh subject and durable name per test keeps tests independent on a shared stream.
      const names = () => {
        const unique = randomUUID().slice(0, 8);
        return {
          subject: `${adapter.prefix}.contract.v1.thing${unique}.happened`,
          durable: `contract-${unique}`,
        };
      };

      afterEach(async () => {
        await Promise.all(open.splice(0).map((bus) => bus.close()));
      });

      it('delivers a published message once, with its id, subject and payload', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const seen: BusMessage[] = [];
        await bus.subscribe({ durable, subject, handler: async (m) => void seen.push(m) });
        const id = randomUUID();
        await bus.publish(subject, bytes('hello'), { id });
        await waitFor(() => seen.length === 1);
        await settle(300);
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ id, subject, deliveryCount: 1 });
        expect(text(seen[0]!.data)).toBe('hello');
        expect(bus.healthy()).toBe(true);
      });

      it('carries an event of a note at its 1,000,000 characters (~3 MB)', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const seen: BusMessage[] = [];
        await bus.subscribe({ durable, subject, handler: async (m) => void seen.push(m) });
        const note = '記'.repeat(1_000_000);
        await bus.publish(subject, bytes(note), { id: randomUUID() });
        await waitFor(() => seen.length === 1);
        expect(seen[0]!.data.byteLength).toBe(3_000_000);
      });

      it('fans a message out to every listener, besides the durables', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const heard: string[] = [];
        const handled: string[] = [];
        await bus.listen({ subject, handler: (m) => void heard.push(`one:${text(m.data)}`) });
        await bus.listen({ subject, handler: (m) => void heard.push(`two:${text(m.data)}`) });
        await bus.subscribe({ durable, subject, handler: async (m) => void handled.push(m.id) });
        await settle(100);
        const id = randomUUID();
        await bus.publish(subject, bytes('hi'), { id });
        await waitFor(() => heard.length === 2 && handled.length === 1);
        expect(heard.sort()).toEqual(['one:hi', 'two:hi']);
        expect(handled).toEqual([id]);
      });

      // Replicas are processes with a connection each; the in-process bus has one process.
      it.skipIf(adapter.name === 'memory')(
        'reaches the listeners of every connection (every replica)',
        async () => {
          const [one, other] = [await openBus(), await openBus()];
          const { subject } = names();
          const heard: string[] = [];
          await one.listen({ subject, handler: () => void heard.push('one') });
          await other.listen({ subject, handler: () => void heard.push('other') });
          await settle(100);
          await one.publish(subject, bytes('hi'), { id: randomUUID() });
          await waitFor(() => heard.length === 2);
          expect(heard.sort()).toEqual(['one', 'other']);
        },
      );

      it('gives a listener the id, subject and headers, and nothing once it stops', async () => {
        const bus = await openBus();
        const { subject } = names();
        const heard: Omit<BusMessage, 'deliveryCount'>[] = [];
        const listening = await bus.listen({
          subject: subject.replace(/\.happened$/, '.*'),
          handler: (m) => void heard.push(m),
        });
        await settle(100);
        const id = randomUUID();
        await bus.publish(subject, bytes('x'), { id, headers: { 'x-test': 'yes' } });
        await waitFor(() => heard.length === 1);
        expect(heard[0]).toMatchObject({ id, subject, headers: { 'x-test': 'yes' } });
        await listening.stop();
        await bus.publish(subject, bytes('y'), { id: randomUUID() });
        await settle(300);
        expect(heard).toHaveLength(1);
      });

      it('keeps delivering to a listener after one of its calls throws', async () => {
        const bus = await openBus();
        const { subject } = names();
        let calls = 0;
        await bus.listen({
          subject,
          handler: () => {
            calls += 1;
            if (calls === 1) throw new Error('listener broke');
          },
        });
        await settle(100);
        await bus.publish(subject, bytes('1'), { id: randomUUID() });
        await bus.publish(subject, bytes('2'), { id: randomUUID() });
        await waitFor(() => calls === 2);
      });

      it('does not deliver inside the publish call', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        let handled = 0;
        await bus.subscribe({ durable, subject, handler: async () => void handled++ });
        const publishing = bus.publish(subject, bytes('x'), { id: randomUUID() });
        expect(handled).toBe(0);
        await publishing;
        await waitFor(() => handled === 1);
      });

      it('redelivers after a handler throws, counting deliveries, and stops once acked', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const counts: number[] = [];
        await bus.subscribe({
          durable,
          subject,
          retryDelayMs: 100,
          handler: async (m) => {
            counts.push(m.deliveryCount);
            if (m.deliveryCount === 1) throw new Error('first attempt fails');
          },
        });
        await bus.publish(subject, bytes('retry me'), { id: randomUUID() });
        await waitFor(() => counts.length === 2);
        await settle(600);
        expect(counts).toEqual([1, 2]);
      });

      it('gives a message up after maxDeliver failed deliveries', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const counts: number[] = [];
        const failedBefore = (await eventsTotal.get()).values
          .filter((v) => v.labels.subject === subject && v.labels.outcome === 'gave_up')
          .reduce((sum, v) => sum + v.value, 0);
        await bus.subscribe({
          durable,
          subject,
          retryDelayMs: 50,
          maxDeliver: 3,
          handler: async (m) => {
            counts.push(m.deliveryCount);
            throw new Error('always fails');
          },
        });
        await bus.publish(subject, bytes('poison'), { id: randomUUID() });
        await waitFor(() => counts.length === 3);
        await settle(500);
        expect(counts).toEqual([1, 2, 3]);
        const gaveUp = (await eventsTotal.get()).values
          .filter((v) => v.labels.subject === subject && v.labels.outcome === 'gave_up')
          .reduce((sum, v) => sum + v.value, 0);
        expect(gaveUp - failedBefore).toBe(1);
      });

      it('stores a message published twice with the same id once', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const seen: string[] = [];
        await bus.subscribe({
          durable,
          subject,
          handler: async (m) => void seen.push(text(m.data)),
        });
        const id = randomUUID();
        await bus.publish(subject, bytes('first'), { id });
        await bus.publish(subject, bytes('second'), { id });
        await bus.publish(subject, bytes('other'), { id: randomUUID() });
        await waitFor(() => seen.length >= 2);
        await settle(300);
        expect(seen.sort()).toEqual(['first', 'other']);
      });

      it('gives every message to each of two different durables', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const a: string[] = [];
        const b: string[] = [];
        await bus.subscribe({
          durable: `${durable}-a`,
          subject,
          handler: async (m) => void a.push(m.id),
        });
        await bus.subscribe({
          durable: `${durable}-b`,
          subject,
          handler: async (m) => void b.push(m.id),
        });
        const ids = [randomUUID(), randomUUID()];
        for (const id of ids) await bus.publish(subject, bytes(id), { id });
        await waitFor(() => a.length === 2 && b.length === 2);
        await settle(300);
        expect(a.sort()).toEqual([...ids].sort());
        expect(b.sort()).toEqual([...ids].sort());
      });

      it('shares a durable between two subscriptions: each message handled by exactly one', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const first: string[] = [];
        const second: string[] = [];
        await bus.subscribe({ durable, subject, handler: async (m) => void first.push(m.id) });
        await bus.subscribe({ durable, subject, handler: async (m) => void second.push(m.id) });
        const ids = Array.from({ length: 20 }, () => randomUUID());
        for (const id of ids) await bus.publish(subject, bytes(id), { id });
        await waitFor(() => first.length + second.length === ids.length);
        await settle(300);
        expect([...first, ...second].sort()).toEqual([...ids].sort());
      });

      it('filters by subject with wildcards', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const wildcard = subject.replace(/\.happened$/, '.*');
        const seen: string[] = [];
        await bus.subscribe({
          durable,
          subject: wildcard,
          handler: async (m) => void seen.push(m.subject),
        });
        await bus.publish(subject, bytes('1'), { id: randomUUID() });
        await bus.publish(subject.replace(/\.happened$/, '.changed'), bytes('2'), {
          id: randomUUID(),
        });
        await bus.publish(subject.replace(/\.happened$/, '.changed.more'), bytes('3'), {
          id: randomUUID(),
        });
        await waitFor(() => seen.length === 2);
        await settle(300);
        expect(seen.sort()).toEqual([subject.replace(/\.happened$/, '.changed'), subject]);
      });

      it('keeps a durable position across stop and resubscribe', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const before: string[] = [];
        const subscription: Subscription = await bus.subscribe({
          durable,
          subject,
          handler: async (m) => void before.push(text(m.data)),
        });
        await bus.publish(subject, bytes('m1'), { id: randomUUID() });
        await waitFor(() => before.length === 1);
        await subscription.stop();

        await bus.publish(subject, bytes('m2'), { id: randomUUID() });
        await bus.publish(subject, bytes('m3'), { id: randomUUID() });
        await settle(200);
        expect(before).toEqual(['m1']);

        const after: string[] = [];
        await bus.subscribe({
          durable,
          subject,
          handler: async (m) => void after.push(text(m.data)),
        });
        await waitFor(() => after.length === 2);
        await settle(300);
        expect(after).toEqual(['m2', 'm3']);
      });

      it('starts a new durable at new messages only', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        // Another durable keeps the stream interested in the subject.
        await bus.subscribe({
          durable: `${durable}-other`,
          subject,
          handler: async () => undefined,
        });
        await bus.publish(subject, bytes('before'), { id: randomUUID() });
        await settle(200);
        const seen: string[] = [];
        await bus.subscribe({
          durable,
          subject,
          handler: async (m) => void seen.push(text(m.data)),
        });
        await bus.publish(subject, bytes('after'), { id: randomUUID() });
        await waitFor(() => seen.length === 1);
        await settle(300);
        expect(seen).toEqual(['after']);
      });

      it('round-trips headers', async () => {
        const bus = await openBus();
        const { subject, durable } = names();
        const seen: BusMessage[] = [];
        await bus.subscribe({ durable, subject, handler: async (m) => void seen.push(m) });
        const headers = { 'x-request-id': 'req-1', traceparent: '00-abc-def-01' };
        await bus.publish(subject, bytes('h'), { id: randomUUID(), headers });
        await waitFor(() => seen.length === 1);
        expect(seen[0]!.headers).toEqual(headers);
      });

      it('refuses to publish after close and reports unhealthy', async () => {
        const bus = await adapter.open();
        await bus.close();
        expect(bus.healthy()).toBe(false);
        await expect(
          bus.publish(`${adapter.prefix}.x.v1.y.z`, bytes('late'), { id: randomUUID() }),
        ).rejects.toThrow();
      });
    },
  );
});

// A TCP proxy in front of the NATS server lets the test cut the connection and restore it.
const startProxy = async (target: string) => {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = tcpConnect(Number(targetPort || 4222), hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.on('close', () => {
            sockets.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        resolve((next.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  const cut = async () => {
    const closing = new Promise((resolve) => server?.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  return { url: `nats://127.0.0.1:${port}`, cut, restore: () => listen(port), close: cut };
};

describe.skipIf(!natsUrl)(
  natsUrl ? 'nats event bus across a lost connection' : 'skipped: TEST_NATS_URL is not set',
  () => {
    it('reports unhealthy while disconnected and keeps consuming after reconnecting', async () => {
      const proxy = await startProxy(natsUrl ?? '');
      const options = {
        service: 'contract',
        logger,
        stream: natsStream,
        subjects: [`${natsPrefix}.>`],
      };
      const proxied = await createNatsBus({ ...options, url: proxy.url });
      const direct = await createNatsBus({ ...options, url: natsUrl ?? '' });
      try {
        const subject = `${natsPrefix}.contract.v1.reconnect${randomUUID().slice(0, 8)}.happened`;
        const seen: string[] = [];
        await proxied.subscribe({
          durable: `reconnect-${randomUUID().slice(0, 8)}`,
          subject,
          handler: async (m) => void seen.push(text(m.data)),
        });
        await proxied.publish(subject, bytes('before'), { id: randomUUID() });
        await waitFor(() => seen.length === 1);

        await proxy.cut();
        await waitFor(() => !proxied.healthy());
        await direct.publish(subject, bytes('while away'), { id: randomUUID() });
        await settle(300);
        expect(seen).toEqual(['before']);

        await proxy.restore();
        await waitFor(() => proxied.healthy(), 15_000);
        await waitFor(() => seen.length === 2, 15_000);
        await proxied.publish(subject, bytes('after'), { id: randomUUID() });
        await waitFor(() => seen.length === 3);
        expect(seen).toEqual(['before', 'while away', 'after']);

        await proxy.cut();
        await waitFor(() => !proxied.healthy());
        await proxied.close();
      } finally {
        await Promise.all([proxied.close(), direct.close()]);
        await proxy.close();
      }
    });
  },
);
