import { describe, expect, it } from 'vitest';
import { workSlots } from './process.js';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('workSlots', () => {
  it('runs at most the limit at once, the rest in arrival order, also after a failure', async () => {
    const slots = workSlots(1);
    const started: number[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((gate, n) =>
      slots.run(async () => {
        started.push(n);
        await gate.promise;
        return n;
      }),
    );
    await turn();
    expect(started).toEqual([0]);
    gates[0]?.reject(new Error('not an image'));
    await expect(runs[0]).rejects.toThrow('not an image');
    await turn();
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[2]?.resolve();
    expect(await Promise.all(runs.slice(1))).toEqual([1, 2]);
  });

  it('runs as many at once as a raised limit allows', async () => {
    const slots = workSlots(1);
    slots.setLimit(2);
    const started: number[] = [];
    const gate = deferred();
    const runs = [0, 1, 2].map((n) =>
      slots.run(async () => {
        started.push(n);
        await gate.promise;
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    gate.resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2]);
  });
});
