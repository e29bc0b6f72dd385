import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One registry per process. In `--target=all` every module shares it and the `service`
 * label tells them apart; in a cluster each pod has one module and the label is constant.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });
// prom-client's sums of its per-type gauges end in _total, which Prometheus keeps for counters
// (`promtool check metrics` refuses them); sum(nodejs_active_handles) and the like say the same.
for (const name of [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]) {
  registry.removeSingleMetric(name);
}

const latencyBuckets = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'noted_http_requests_total',
  help: 'HTTP requests served, by route template and status',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'noted_http_request_duration_seconds',
  help: 'HTTP request latency',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

export const grpcRequests = new Counter({
  name: 'noted_grpc_requests_total',
  help: 'gRPC calls, by side (server or client), method and status code',
  labelNames: ['service', 'side', 'method', 'code'] as const,
  registers: [registry],
});

export const grpcDuration = new Histogram({
  name: 'noted_grpc_request_duration_seconds',
  help: 'gRPC call latency',
  labelNames: ['service', 'side', 'method', 'code'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

export const eventsTotal = new Counter({
  name: 'noted_events_total',
  help: 'Events published and handled, by outcome (published, acked, failed, duplicate)',
  labelNames: ['service', 'subject', 'outcome'] as const,
  registers: [registry],
});

export const eventDuration = new Histogram({
  name: 'noted_event_handle_duration_seconds',
  help: 'Time an event handler took',
  labelNames: ['service', 'subject'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});

/** Measures one operation; call the returned function with the final labels when it ends. */
export const startTimer = () => {
  const started = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - started) / 1e9;
};
