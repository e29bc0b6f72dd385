import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { LiveMessage, LiveNote } from '@noted/api';
import type { EventBus, Subscription } from '@noted/events';
import type { Logger } from '@noted/kit';
import {
  EVENT_USER_HEADER,
  noteEvents,
  reviewEvents,
  userEvents,
  type notesV1,
} from '@noted/proto';
import { LRUCache } from 'lru-cache';
import type { Hub } from './hub.js';
import { eventsSkipped, fanOutSeconds } from './metrics.js';

/**
 * Event ids already pushed: the outbox relay may publish an event again after a crash (the
 * stream keeps one copy, but a listener hears both), and a copy must not reach a socket twice.
 * Ten thousand ids cover far more than the relay's window at any rate this replica pushes.
 */
const REMEMBERED_EVENTS = 10_000;

const iso = (timestamp: Timestamp | undefined) =>
  (timestamp ? timestampDate(timestamp) : new Date(0)).toISOString();

/** A note of an event as the API presents it (what the live messages carry). */
export const liveNote = (note: notesV1.Note): LiveNote => ({
  id: note.id,
  title: note.title,
  note: note.body,
  tags: note.tags,
  images: note.images,
  isPinned: note.isPinned,
  publicId: note.publicId || null,
  createdAt: iso(note.createdAt),
  updatedAt: iso(note.updatedAt),
});

interface Decoded {
  userId: string;
  occurredAt: Timestamp | undefined;
  message: LiveMessage;
}

/** How each event this service pushes becomes a message. */
const decoders: Record<string, (data: Uint8Array) => Decoded | undefined> = {
  [noteEvents.created.subject]: (data) => {
    const { note, occurredAt } = noteEvents.created.decode(data);
    return note && { userId: note.userId, occurredAt, message: noteChange('created', note) };
  },
  [noteEvents.updated.subject]: (data) => {
    const { note, occurredAt } = noteEvents.updated.decode(data);
    return note && { userId: note.userId, occurredAt, message: noteChange('updated', note) };
  },
  [noteEvents.deleted.subject]: (data) => {
    const { noteId, userId, occurredAt } = noteEvents.deleted.decode(data);
    return { userId, occurredAt, message: { type: 'noteDeleted', noteId } };
  },
  [reviewEvents.due.subject]: (data) => {
    const { userId, notes, occurredAt } = reviewEvents.due.decode(data);
    return { userId, occurredAt, message: { type: 'noteReview', notes: notes.map(liveNote) } };
  },
};

const noteChange = (change: 'created' | 'updated', note: notesV1.Note): LiveMessage => ({
  type: 'noteUpdated',
  change,
  note: liveNote(note),
});

/**
 * Listens (fan-out: every replica hears every event) to the note and review events and sends
 * each to the sockets of its user on this replica. An event of a user with no socket here is
 * skipped by its user header, without decoding its payload (a note event carries the note).
 */
export const startPush = async (options: {
  bus: EventBus;
  hub: Hub;
  logger: Logger;
}): Promise<Subscription> => {
  const { hub, logger } = options;
  const pushed = new LRUCache<string, true>({ max: REMEMBERED_EVENTS });
  const subjects = Object.keys(decoders);
  const listening = await Promise.all(
    subjects.map((subject) =>
      options.bus.listen({
        subject,
        handler: ({ id, subject: on, data, headers }) => {
          const named = headers[EVENT_USER_HEADER];
          if (named !== undefined && !hub.has(named)) {
            eventsSkipped.inc({ reason: 'no_socket' });
            return;
          }
          if (pushed.has(id)) {
            eventsSkipped.inc({ reason: 'duplicate' });
            return;
          }
          pushed.set(id, true);
          const decoded = decoders[on]?.(data);
          if (!decoded) return;
          const sent = hub.send(decoded.userId, decoded.message);
          if (sent === 0) {
            eventsSkipped.inc({ reason: 'no_socket' });
            return;
          }
          if (decoded.occurredAt) {
            const seconds = (Date.now() - timestampDate(decoded.occurredAt).getTime()) / 1000;
            fanOutSeconds.observe({ type: decoded.message.type }, Math.max(0, seconds));
          }
          logger.debug({ eventId: id, type: decoded.message.type, sockets: sent }, 'pushed');
        },
      }),
    ),
  );
  // A deleted account's sockets close on every replica (the session ends with the account).
  listening.push(
    await options.bus.listen({
      subject: userEvents.deleted.subject,
      handler: ({ data }) => {
        const { userId } = userEvents.deleted.decode(data);
        // Every replica remembers it, sockets or not: a token issued before is refused here too.
        const closed = hub.closeUser(userId);
        if (closed > 0) {
          logger.info({ userId, sockets: closed }, 'deleted account: its live sockets closed');
        }
      },
    }),
  );
  return {
    async stop() {
      await Promise.all(listening.map((subscription) => subscription.stop()));
    },
  };
};
