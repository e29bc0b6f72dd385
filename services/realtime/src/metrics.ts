import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '@noted/kit';
import type { LiveMessageType } from '@noted/api';

/** Why a socket was closed by the server or a connection refused: a fixed set of labels. */
export type DropReason =
  | 'slow' // its send buffer passed the limit: a client that does not read
  | 'dead' // no pong since the last ping
  | 'user_limit'
  | 'server_limit'
  | 'token'
  | 'origin'
  | 'shutdown'
  | 'account_deleted'; // its user deleted the account

export const openSockets = new Gauge({
  name: 'noted_realtime_open_sockets',
  help: 'Live WebSocket connections open on this replica',
  registers: [registry],
});

export const connectedUsers = new Gauge({
  name: 'noted_realtime_connected_users',
  help: 'Users with at least one live connection on this replica',
  registers: [registry],
});

export const messagesOut = new Counter({
  name: 'noted_realtime_messages_sent_total',
  help: 'Messages sent to sockets, by type (one per socket)',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const drops = new Counter({
  name: 'noted_realtime_drops_total',
  help: 'Connections refused or closed by the server, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const fanOutSeconds = new Histogram({
  name: 'noted_realtime_fanout_seconds',
  help: 'From an event happening (its occurred_at) to its message handed to every socket of the user',
  labelNames: ['type'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const eventsSkipped = new Counter({
  name: 'noted_realtime_events_skipped_total',
  help:
    'Events not pushed, by reason: no socket of the user on this replica, or a copy already ' +
    'pushed (the same event id)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const countSent = (type: LiveMessageType, sockets: number) => {
  if (sockets > 0) messagesOut.inc({ type }, sockets);
};
