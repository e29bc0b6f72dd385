export * from './config.js';
export { realtimeRouter, startRealtime, type RunningRealtime } from './service.js';
export { createLiveTokens, type LiveTokens } from './tokens.js';
