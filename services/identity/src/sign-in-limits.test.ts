import { describe, expect, it } from 'vitest';
import { SignInLimits } from './sign-in-limits.js';

const limitsAt = (clock: { now: number }) =>
  new SignInLimits({ failuresPerAccount: 3, failuresPerIp: 5, windowSeconds: 60 }, () => clock.now);

describe('SignInLimits', () => {
  it('locks an account until the window that counted its failures ends', () => {
    const clock = { now: 1_000_000 };
    const limits = limitsAt(clock);
    for (let i = 0; i < 3; i += 1) {
      expect(limits.refusal('ada@example.com', '192.0.2.1')).toBeUndefined();
      limits.failed('ada@example.com', `192.0.2.${i + 1}`);
      clock.now += 10_000;
    }
    expect(limits.refusal('ADA@example.com ', '192.0.2.9')).toEqual({
      locked: 'account',
      retryAfterSeconds: 30,
    });
    expect(limits.refusal('grace@example.com', '192.0.2.1')).toBeUndefined();
    clock.now += 30_000;
    expect(limits.refusal('ada@example.com', '192.0.2.1')).toBeUndefined();
  });

  it('counts IPv6 addresses by their /56, so one network cannot rotate addresses', () => {
    const clock = { now: 0 };
    const limits = limitsAt(clock);
    for (let i = 0; i < 5; i += 1) limits.failed(`user${i}@example.com`, `2001:db8:0:${i}::1`);
    expect(limits.refusal('someone@example.com', '2001:db8:0:ff::9')?.locked).toBe('ip');
    expect(limits.refusal('someone@example.com', '2001:db8:1:0::1')).toBeUndefined();
    expect(limits.refusal('someone@example.com', '192.0.2.1')).toBeUndefined();
  });
});
