import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { gatherPerTurn, subscribeWorkers, type EventBus } from '@noted/events';
import type { Logger } from '@noted/kit';
import { noteEvents, noteEventsFilter } from '@noted/proto';
import type { Indexer, NoteForIndex } from './indexer.js';
import { noteForIndex } from './indexer.js';
import { indexMetrics } from './metrics.js';

/** The durable consumer: replicas share it, and it resumes where it stopped. */
export const AI_INDEX_CONSUMER = 'ai-index';

/**
 * Events handled at once per replica. Each subscription holds one event at a time, so this
 * bounds the notes (and their text) in memory, and the notes that arrive together are
 * embedded with one provider call.
 */
export const AI_INDEX_WORKERS = 16;

const observeLag = (occurredAt: Timestamp | undefined) => {
  if (!occurredAt) return;
  const lag = Math.max(0, (Date.now() - timestampDate(occurredAt).getTime()) / 1000);
  indexMetrics.lagSeconds.set(lag);
  indexMetrics.eventLag.observe(lag);
};

/**
 * Keeps the AI index current from note events: created and updated notes are (re)embedded,
 * deleted ones forgotten. A failed batch throws to every event in it, so all are redelivered.
 */
export const startIndexConsumer = (options: {
  bus: EventBus;
  indexer: Indexer;
  logger: Logger;
}) => {
  const index = gatherPerTurn<NoteForIndex>((notes) => options.indexer.index(notes));
  const remove = gatherPerTurn<{ noteId: string; userId: string }>((removals) =>
    options.indexer.remove(removals),
  );

  return subscribeWorkers(options.bus, {
    name: 'the AI index',
    logger: options.logger,
    workers: AI_INDEX_WORKERS,
    durable: AI_INDEX_CONSUMER,
    subject: noteEventsFilter,
    handler: async (message) => {
      switch (message.subject) {
        case noteEvents.created.subject:
        case noteEvents.updated.subject: {
          const { note, occurredAt } =
            message.subject === noteEvents.created.subject
              ? noteEvents.created.decode(message.data)
              : noteEvents.updated.decode(message.data);
          if (note) await index(noteForIndex(note));
          observeLag(occurredAt);
          return;
        }
        case noteEvents.deleted.subject: {
          const { noteId, userId, occurredAt } = noteEvents.deleted.decode(message.data);
          await remove({ noteId, userId });
          observeLag(occurredAt);
          return;
        }
        default:
          return;
      }
    },
  });
};
