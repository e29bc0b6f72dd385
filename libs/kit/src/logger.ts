import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentContext } from './context.js';

export type { Logger };

/** Paths that never reach a log line: tokens, passwords, note bodies, card details. */
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-noted-identity"]',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.note',
  '*.card',
];

export const createLogger = (options: { level?: string; name?: string } = {}): Logger => {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    redact,
    base: { service: options.name ?? 'noted' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const { requestId, userId } = currentContext();
      return {
        ...(requestId ? { requestId } : {}),
        ...(userId ? { userId } : {}),
      };
    },
  };
  return pino(config);
};
