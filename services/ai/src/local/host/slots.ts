/**
 * A fixed number of slots, handed out in arrival order. Capture's worker pools queue here, not
 * inside tesseract.js or piscina: a job whose caller gives up while it waits is simply dropped,
 * and a job's time limit starts when it gets a worker rather than when it starts waiting.
 */
export interface Slots {
  /** Waits for a free slot; the function returned gives it back (calling it twice is harmless). */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Rejects everyone waiting with `reason`, and every later `acquire`. */
  close(reason: Error): void;
}

interface Waiter {
  grant: () => void;
  fail: (reason: unknown) => void;
}

export const createSlots = (size: number): Slots => {
  let free = Math.max(1, Math.floor(size));
  const waiting: Waiter[] = [];
  let closed: Error | null = null;

  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      // The slot goes straight to the next waiter, so `free` stays as it is.
      if (next) next.grant();
      else free += 1;
    };
  };

  return {
    acquire(signal) {
      if (closed) return Promise.reject(closed);
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (free > 0) {
        free -= 1;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaser());
          },
          fail: (reason) => {
            signal?.removeEventListener('abort', onAbort);
            reject(reason);
          },
        };
        waiting.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },

    close(reason) {
      closed = reason;
      for (const waiter of waiting.splice(0)) waiter.fail(reason);
    },
  };
};
