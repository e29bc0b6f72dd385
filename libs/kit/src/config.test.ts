import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ConfigError, parseConfig } from './config.js';

const schema = z.object({
  PORT: z.coerce.number().int().min(1).default(8080),
  NATS_URL: z
    .string()
    .regex(/^nats:\/\//, 'must be a nats:// URL')
    .optional(),
  SECRET: z.string().min(8),
});

describe('parseConfig', () => {
  it('applies defaults and coerces values', () => {
    expect(parseConfig(schema, { SECRET: 'long-enough' })).toEqual({
      PORT: 8080,
      SECRET: 'long-enough',
    });
    expect(parseConfig(schema, { SECRET: 'long-enough', PORT: '9000' }).PORT).toBe(9000);
  });

  it('names a missing variable in one line', () => {
    expect(() => parseConfig(schema, {})).toThrow(ConfigError);
    expect(() => parseConfig(schema, {})).toThrow(/^invalid configuration: SECRET: .*\(not set\)$/);
  });

  it('names a malformed variable and what it was given', () => {
    expect(() => parseConfig(schema, { SECRET: 'long-enough', NATS_URL: 'http://x' })).toThrow(
      'invalid configuration: NATS_URL: must be a nats:// URL (got "http://x")',
    );
  });
});
