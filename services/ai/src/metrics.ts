import { Counter, Histogram } from 'prom-client';
import { registry } from '@noted/kit';

/** Provider calls last from milliseconds (embeddings) to a minute (a long streamed answer). */
const providerBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120];

export const aiTokens = new Counter({
  name: 'noted_ai_tokens_total',
  help: 'Tokens used at AI providers, by model, purpose and kind (prompt or completion)',
  labelNames: ['provider', 'model', 'purpose', 'kind'] as const,
  registers: [registry],
});

export const aiProviderRequests = new Counter({
  name: 'noted_ai_provider_requests_total',
  help: 'Requests to AI providers, by operation (chat, embed, transcribe) and outcome (ok, error, cancelled)',
  labelNames: ['provider', 'operation', 'outcome'] as const,
  registers: [registry],
});

export const aiProviderDuration = new Histogram({
  name: 'noted_ai_provider_duration_seconds',
  help: 'Time an AI provider request took, a streamed answer until its end',
  labelNames: ['provider', 'operation'] as const,
  buckets: providerBuckets,
  registers: [registry],
});

export const captureReads = new Counter({
  name: 'noted_ai_capture_reads_total',
  help:
    'Captured notes read, by kind (image, audio, link, pdf) and outcome (ready, failed, ' +
    'waiting for a model, retried)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

export const captureReadDuration = new Histogram({
  name: 'noted_ai_capture_read_duration_seconds',
  help: 'Time from a capture reading beginning to its note being filled, by kind',
  labelNames: ['kind'] as const,
  buckets: [0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120, 300],
  registers: [registry],
});
