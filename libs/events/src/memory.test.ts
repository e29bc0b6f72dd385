import { randomUUID } from 'node:crypto';
import { createLogger } from '@noted/kit';
import { describe, expect, it } from 'vitest';
import { createMemoryBus } from './memory.js';

const logger = createLogger({ level: 'silent' });
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('memory bus', () => {
  it('forgets a message id once the de-duplication window has passed', async () => {
    const bus = createMemoryBus({ service: 'test', logger, dedupWindowMs: 50 });
    const seen: number[] = [];
    await bus.subscribe({
      durable: 'window',
      subject: 'noted.test.v1.thing.*',
      handler: async (m) => void seen.push(m.data[0] ?? -1),
    });
    const id = randomUUID();
    await bus.publish('noted.test.v1.thing.done', new Uint8Array([1]), { id });
    await bus.publish('noted.test.v1.thing.done', new Uint8Array([2]), { id });
    await settle(100);
    await bus.publish('noted.test.v1.thing.done', new Uint8Array([3]), { id });
    await settle(50);
    await bus.close();
    expect(seen).toEqual([1, 3]);
  });

  it('lets a running handler finish on close and delivers nothing after', async () => {
    const bus = createMemoryBus({ service: 'test', logger });
    const events: string[] = [];
    await bus.subscribe({
      durable: 'slow',
      subject: 'noted.test.v1.>',
      handler: async (m) => {
        events.push(`start ${m.subject}`);
        await settle(100);
        events.push(`end ${m.subject}`);
      },
    });
    await bus.publish('noted.test.v1.a.b', new Uint8Array(), { id: randomUUID() });
    await bus.publish('noted.test.v1.c.d', new Uint8Array(), { id: randomUUID() });
    await settle(20);
    await bus.close();
    expect(events).toEqual(['start noted.test.v1.a.b', 'end noted.test.v1.a.b']);
    await settle(150);
    expect(events).toHaveLength(2);
  });
});
