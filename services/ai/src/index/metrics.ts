import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from '@noted/kit';

/** How the AI index keeps up with notes; lag is what an operator alerts on. */
export const indexMetrics = {
  notesIndexed: new Counter({
    name: 'noted_ai_index_notes_total',
    help: 'Notes handled by the AI index, by outcome (indexed, excluded, skipped, deleted)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  lagSeconds: new Gauge({
    name: 'noted_ai_index_lag_seconds',
    help: 'Age of the newest note event the AI index has applied, when it was applied',
    registers: [registry],
  }),
  eventLag: new Histogram({
    name: 'noted_ai_index_event_lag_seconds',
    help: 'Time from a note change to the AI index having applied it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  }),
  pendingNotes: new Gauge({
    name: 'noted_ai_index_pending_notes',
    help: 'Notes whose chunks are of another embedding model than the configured one',
    registers: [registry],
  }),
  retrievalChunks: new Counter({
    name: 'noted_ai_index_retrieval_chunks_total',
    help: 'Chunks given a vector by the retrieval encoder (e5) in the background',
    registers: [registry],
  }),
  retrievalPending: new Gauge({
    name: 'noted_ai_index_retrieval_pending_chunks',
    help: 'Chunks of live notes still without a vector by the retrieval encoder (e5)',
    registers: [registry],
  }),
};
