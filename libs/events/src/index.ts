export type {
  BusMessage,
  EventBus,
  ListenOptions,
  PublishOptions,
  SubscribeOptions,
  Subscription,
} from './bus.js';
export { createMemoryBus, type MemoryBusOptions } from './memory.js';
export { createNatsBus, type NatsBusOptions } from './nats.js';
export { openEventBus } from './open.js';
export { assertFilterSubject, assertPublishSubject, subjectMatches } from './subject.js';
export { gatherPerTurn, subscribeWorkers } from './workers.js';
