import { LRUCache } from 'lru-cache';
import type { LiveMessage } from '@noted/api';
import type { Logger } from '@noted/kit';
import type { WebSocket } from 'ws';
import { connectedUsers, countSent, drops, openSockets, type DropReason } from './metrics.js';

/** WebSocket close codes the server uses (4000-4999 are the application's). */
export const CLOSE = {
  /** The server is stopping: the client reconnects, to another replica. */
  goingAway: 1001,
  /** The client did not answer a ping, or does not read what it is sent. */
  policy: 1008,
  /** The user deleted the account: there is nothing more to push, and no reconnecting. */
  accountDeleted: 4001,
} as const;

export interface HubOptions {
  maxConnections: number;
  maxPerUser: number;
  /** A socket whose unsent data passes this is closed rather than buffered without bound. */
  maxBufferedBytes: number;
  /**
   * How long a deleted account is refused a new socket after its sockets were closed: as long
   * as a live token issued before the deletion, or by a gateway that has not heard of it yet,
   * can still be brought.
   */
  deletedAccountMs: number;
  logger: Logger;
}

export type Admission = 'ok' | 'user_limit' | 'server_limit' | 'account_deleted';

interface Live {
  socket: WebSocket;
  alive: boolean;
}

/**
 * The sockets of this replica by user: admits within the caps, sends a message to every socket
 * of a user (serialised once), closes a socket that does not keep up, and pings every socket
 * on `heartbeat()`, closing one that did not answer the previous ping.
 */
export const createHub = (options: HubOptions) => {
  const byUser = new Map<string, Set<Live>>();
  const bySocket = new Map<WebSocket, { userId: string; live: Live }>();
  const deletedAccounts = new LRUCache<string, true>({
    max: 100_000,
    ttl: options.deletedAccountMs,
  });

  const gauges = () => {
    openSockets.set(bySocket.size);
    connectedUsers.set(byUser.size);
  };

  const drop = (live: Live, reason: DropReason, code: number, why: string) => {
    drops.inc({ reason });
    live.socket.close(code, why);
    // A peer that does not read may not read the close either: end it for sure.
    setTimeout(() => live.socket.terminate(), 1_000).unref();
    remove(live.socket);
  };

  const remove = (socket: WebSocket) => {
    const entry = bySocket.get(socket);
    if (!entry) return;
    bySocket.delete(socket);
    const sockets = byUser.get(entry.userId);
    sockets?.delete(entry.live);
    if (sockets?.size === 0) byUser.delete(entry.userId);
    gauges();
  };

  return {
    /** Whether one more socket of `userId` may open. */
    admits(userId: string): Admission {
      if (deletedAccounts.has(userId)) return 'account_deleted';
      if (bySocket.size >= options.maxConnections) return 'server_limit';
      if ((byUser.get(userId)?.size ?? 0) >= options.maxPerUser) return 'user_limit';
      return 'ok';
    },

    add(userId: string, socket: WebSocket) {
      const live: Live = { socket, alive: true };
      let sockets = byUser.get(userId);
      if (!sockets) byUser.set(userId, (sockets = new Set()));
      sockets.add(live);
      bySocket.set(socket, { userId, live });
      socket.on('pong', () => {
        live.alive = true;
      });
      socket.once('close', () => remove(socket));
      gauges();
    },

    /** Sends to every socket of `userId` on this replica; how many it was sent to. */
    send(userId: string, message: LiveMessage): number {
      const sockets = byUser.get(userId);
      if (!sockets) return 0;
      const data = JSON.stringify(message);
      let sent = 0;
      for (const live of [...sockets]) {
        if (live.socket.readyState !== live.socket.OPEN) continue;
        if (live.socket.bufferedAmount > options.maxBufferedBytes) {
          options.logger.warn(
            { userId, buffered: live.socket.bufferedAmount },
            'live socket does not keep up; closed',
          );
          drop(live, 'slow', CLOSE.policy, 'too slow');
          continue;
        }
        live.socket.send(data);
        sent += 1;
      }
      countSent(message.type, sent);
      return sent;
    },

    has: (userId: string) => byUser.has(userId),

    /** Pings every socket; one that has not answered the last ping is closed. */
    heartbeat() {
      for (const { live } of [...bySocket.values()]) {
        if (!live.alive) {
          drops.inc({ reason: 'dead' });
          live.socket.terminate();
          remove(live.socket);
          continue;
        }
        live.alive = false;
        live.socket.ping();
      }
    },

    /**
     * Closes every socket of a user who deleted the account, and refuses the user new ones for
     * a while; answers how many were closed.
     */
    closeUser(userId: string) {
      deletedAccounts.set(userId, true);
      const sockets = [...(byUser.get(userId) ?? [])];
      for (const live of sockets)
        drop(live, 'account_deleted', CLOSE.accountDeleted, 'account deleted');
      return sockets.length;
    },

    /** Closes every socket, telling clients to come back (to another replica). */
    closeAll() {
      for (const { live } of [...bySocket.values()]) {
        drop(live, 'shutdown', CLOSE.goingAway, 'server stopping');
      }
    },
  };
};

export type Hub = ReturnType<typeof createHub>;
