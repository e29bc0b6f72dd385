import type { Logger } from '@noted/kit';
import type { EventBus } from './bus.js';
import { createMemoryBus } from './memory.js';
import { createNatsBus } from './nats.js';

/** NATS JetStream when a URL is configured, else the in-process bus. */
export const openEventBus = async (options: {
  natsUrl?: string;
  service: string;
  logger: Logger;
}): Promise<EventBus> =>
  options.natsUrl
    ? createNatsBus({ url: options.natsUrl, service: options.service, logger: options.logger })
    : createMemoryBus({ service: options.service, logger: options.logger });
