import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.js';

describe('createSlots', () => {
  it('hands out slots in arrival order as they are given back', async () => {
    const slots = createSlots(2);
    const first = await slots.acquire();
    const second = await slots.acquire();
    const order: string[] = [];
    const third = slots.acquire().then((release) => (order.push('third'), release));
    const fourth = slots.acquire().then((release) => (order.push('fourth'), release));
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    first(); // a second call gives nothing more back
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
  });

  it('drops a waiter whose signal aborts, and refuses an aborted signal at once', async () => {
    const slots = createSlots(1);
    const held = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    controller.abort(new Error('caller left'));
    await expect(waiting).rejects.toThrow('caller left');
    await expect(slots.acquire(controller.signal)).rejects.toThrow('caller left');
    held();
    // The aborted waiter took nothing: the slot is free.
    (await slots.acquire())();
  });

  it('rejects waiters and later acquires once closed', async () => {
    const slots = createSlots(1);
    await slots.acquire();
    const waiting = slots.acquire();
    slots.close(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    await expect(slots.acquire()).rejects.toThrow('closed');
  });
});
