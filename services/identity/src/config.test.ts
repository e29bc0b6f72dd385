import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@noted/kit';
import { identityConfig } from './index.js';

describe('identityConfig', () => {
  it('defaults to port 4100, the development password "noted" and the sign-in limits', () => {
    expect(parseConfig(identityConfig, {})).toEqual({
      IDENTITY_PORT: 4100,
      NOTED_DEV_PASSWORD: 'noted',
      IDENTITY_SIGN_IN_FAILURES_PER_ACCOUNT: 5,
      IDENTITY_SIGN_IN_FAILURES_PER_IP: 20,
      IDENTITY_SIGN_IN_WINDOW_SECONDS: 900,
      IDENTITY_ADMIN_EMAILS: [],
    });
  });

  it('reads every variable from the environment', () => {
    expect(
      parseConfig(identityConfig, {
        IDENTITY_PORT: '4200',
        NOTED_DEV_PASSWORD: 's3cret',
        IDENTITY_SIGN_IN_FAILURES_PER_ACCOUNT: '3',
        IDENTITY_SIGN_IN_FAILURES_PER_IP: '10',
        IDENTITY_SIGN_IN_WINDOW_SECONDS: '60',
        IDENTITY_ADMIN_EMAILS: ' Ops@Example.com, ,grace@example.com',
      }),
    ).toEqual({
      IDENTITY_PORT: 4200,
      NOTED_DEV_PASSWORD: 's3cret',
      IDENTITY_SIGN_IN_FAILURES_PER_ACCOUNT: 3,
      IDENTITY_SIGN_IN_FAILURES_PER_IP: 10,
      IDENTITY_SIGN_IN_WINDOW_SECONDS: 60,
      IDENTITY_ADMIN_EMAILS: ['ops@example.com', 'grace@example.com'],
    });
  });

  it('names the variable when a value is malformed', () => {
    expect(() => parseConfig(identityConfig, { IDENTITY_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig(identityConfig, { IDENTITY_PORT: 'eighty' })).toThrow(/IDENTITY_PORT/);
  });
});
