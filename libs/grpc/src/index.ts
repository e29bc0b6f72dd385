export {
  createGrpcServer,
  DEFAULT_MAX_CONNECTION_AGE_GRACE_MS,
  DEFAULT_MAX_CONNECTION_AGE_MS,
  type GrpcServer,
  type GrpcServerOptions,
} from './server.js';
export {
  createGrpcClient,
  DEFAULT_CHANNEL_OPTIONS,
  DEFAULT_DEADLINE_MS,
  type GrpcClientOptions,
} from './client.js';
export { checkHealth, type CheckHealthOptions, type HealthStatus } from './health.js';
export { ERROR_CODE_KEY, fromServiceError, toStatus } from './errors.js';
export type {
  CallContext,
  CallOptions,
  ClientMethod,
  MethodImpl,
  ServiceClient,
  ServiceImpl,
} from './types.js';
