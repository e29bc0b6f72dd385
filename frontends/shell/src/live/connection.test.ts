import type { LiveMessage } from '@noted/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BASE_DELAY_MS,
  MAX_DELAY_MS,
  STABLE_MS,
  createLiveConnection,
  socketUrl,
  type LiveSocket,
} from './connection';

class FakeSocket implements LiveSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code ?? 1005;
    this.onclose?.();
  }
  /** The server's side. */
  open() {
    this.onopen?.();
  }
  send(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.onclose?.();
  }
}

const setUp = (options: { random?: number; failTokens?: number } = {}) => {
  const sockets: FakeSocket[] = [];
  let online = true;
  let networkListener: (() => void) | undefined;
  let failures = options.failTokens ?? 0;
  const token = vi.fn(async () => {
    if (failures > 0) {
      failures -= 1;
      throw new Error('UNAVAILABLE');
    }
    return { token: 't', expiresAt: '', url: `/ws?token=t${token.mock.calls.length}` };
  });
  const connection = createLiveConnection({
    token,
    baseUrl: 'https://noted.example/',
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    log: { warn: vi.fn(), error: vi.fn() },
    random: () => options.random ?? 1,
    network: {
      online: () => online,
      onChange: (listener) => {
        networkListener = listener;
        return () => (networkListener = undefined);
      },
    },
  });
  const received: LiveMessage[] = [];
  connection.live.subscribe((message) => received.push(message));
  const setOnline = (value: boolean) => {
    online = value;
    networkListener?.();
  };
  /** Lets the token's promise settle. */
  const tick = () => vi.advanceTimersByTimeAsync(0);
  return { connection, sockets, token, received, setOnline, tick };
};

describe('the live connection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is the token's address on the API origin, as ws: or wss:", () => {
    expect(socketUrl('/ws?token=a.b.c', 'https://noted.example/')).toBe(
      'wss://noted.example/ws?token=a.b.c',
    );
    expect(socketUrl('/ws?token=x', 'http://localhost:8080/')).toBe(
      'ws://localhost:8080/ws?token=x',
    );
  });

  it('connects with a fresh token and re-emits every message in the page', async () => {
    const { connection, sockets, token, received, tick } = setUp();
    expect(connection.live.status()).toBe('off');
    connection.start('user-1');
    expect(connection.live.status()).toBe('connecting');
    await tick();
    expect(token).toHaveBeenCalledTimes(1);
    expect(sockets[0]!.url).toBe('wss://noted.example/ws?token=t1');
    sockets[0]!.open();
    expect(connection.live.status()).toBe('open');
    sockets[0]!.send({ type: 'connection', status: 'success' });
    sockets[0]!.onmessage?.({ data: 'not json' });
    sockets[0]!.send({ nothing: 'here' });
    sockets[0]!.send({ type: 'noteDeleted', noteId: 'n1' });
    expect(received).toEqual([
      { type: 'connection', status: 'success' },
      { type: 'noteDeleted', noteId: 'n1' },
    ]);
  });

  it('comes back after drops with growing, jittered waits, and starts over once stable', async () => {
    const { connection, sockets, token, tick } = setUp({ random: 1 });
    connection.start('user-1');
    await tick();
    const waits: number[] = [];
    for (let drop = 0; drop < 7; drop += 1) {
      const socket = sockets.at(-1)!;
      socket.open();
      socket.drop();
      expect(connection.live.status()).toBe('waiting');
      const before = token.mock.calls.length;
      let waited = 0;
      while (token.mock.calls.length === before) {
        await vi.advanceTimersByTimeAsync(250);
        waited += 250;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30].map((s) => s * BASE_DELAY_MS));
    expect(Math.max(...waits)).toBe(MAX_DELAY_MS);

    // Open long enough, then dropped: back to the first wait.
    sockets.at(-1)!.open();
    await vi.advanceTimersByTimeAsync(STABLE_MS);
    sockets.at(-1)!.drop();
    const before = token.mock.calls.length;
    await vi.advanceTimersByTimeAsync(BASE_DELAY_MS);
    expect(token.mock.calls.length).toBe(before + 1);
  });

  it('spreads reconnects over the wait (full jitter)', async () => {
    const { connection, sockets, token, tick } = setUp({ random: 0.25 });
    connection.start('user-1');
    await tick();
    sockets[0]!.drop();
    await vi.advanceTimersByTimeAsync(BASE_DELAY_MS / 4);
    expect(token).toHaveBeenCalledTimes(2);
  });

  it('tries again later when no token can be had', async () => {
    const { connection, sockets, token, tick } = setUp({ failTokens: 2 });
    connection.start('user-1');
    await tick();
    expect(sockets).toHaveLength(0);
    expect(connection.live.status()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(BASE_DELAY_MS + 2 * BASE_DELAY_MS);
    expect(token).toHaveBeenCalledTimes(3);
    expect(sockets).toHaveLength(1);
  });

  it('waits while offline and connects at once when the network comes back', async () => {
    const { connection, sockets, token, setOnline, tick } = setUp();
    connection.start('user-1');
    await tick();
    sockets[0]!.open();
    setOnline(false);
    expect(sockets[0]!.closedWith).toBeDefined();
    expect(connection.live.status()).toBe('waiting');
    await vi.advanceTimersByTimeAsync(5 * MAX_DELAY_MS);
    expect(token).toHaveBeenCalledTimes(1);
    setOnline(true);
    await tick();
    expect(token).toHaveBeenCalledTimes(2);
    expect(sockets).toHaveLength(2);
  });

  it('closes for good on sign-out, and starts afresh for another user', async () => {
    const { connection, sockets, token, tick } = setUp();
    connection.start('user-1');
    await tick();
    sockets[0]!.open();
    connection.stop();
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(connection.live.status()).toBe('off');
    await vi.advanceTimersByTimeAsync(5 * MAX_DELAY_MS);
    expect(token).toHaveBeenCalledTimes(1);

    connection.start('user-2');
    await tick();
    expect(sockets).toHaveLength(2);
    connection.start('user-2');
    await tick();
    expect(sockets).toHaveLength(2);
  });
});
