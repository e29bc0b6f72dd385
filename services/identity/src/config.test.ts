import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@noted/kit';
import { identityConfig } from './index.js';

describe('identityConfig', () => {
  it('defaults to port 4100 and the development password "noted"', () => {
    expect(parseConfig(identityConfig, {})).toEqual({
      IDENTITY_PORT: 4100,
      NOTED_DEV_PASSWORD: 'noted',
    });
  });

  it('reads both variables from the environment', () => {
    expect(
      parseConfig(identityConfig, { IDENTITY_PORT: '4200', NOTED_DEV_PASSWORD: 's3cret' }),
    ).toEqual({
      IDENTITY_PORT: 4200,
      NOTED_DEV_PASSWORD: 's3cret',
    });
  });

  it('names the variable when a value is malformed', () => {
    expect(() => parseConfig(identityConfig, { IDENTITY_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig(identityConfig, { IDENTITY_PORT: 'eighty' })).toThrow(/IDENTITY_PORT/);
  });
});
