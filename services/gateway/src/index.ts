export * from './config.js';
export * from './gateway.js';
export { routingTable, signedInPrefixes } from './routing.js';
