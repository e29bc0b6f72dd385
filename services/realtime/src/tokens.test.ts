import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLiveTokens } from './tokens.js';

const secret = 'a'.repeat(48);
const ttlMs = 60_000;

describe('live-connection tokens', () => {
  const userId = randomUUID();
  let clock = Date.UTC(2026, 10, 28, 12);
  const tokens = createLiveTokens({ secret, ttlMs, now: () => clock });
  const { token } = tokens.issue(userId);
  const [, stamp, signature] = token.split('.') as [string, string, string];

  it('is userId.timestamp.signature and verifies to its user within its lifetime', () => {
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d{13}\.[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(token)).toBe(userId);
    clock += ttlMs;
    expect(tokens.verify(token)).toBe(userId);
    clock -= ttlMs;
  });

  it('needs a user to be made', () => {
    expect(() => tokens.issue(undefined)).toThrow('UserId is required to generate a token');
    expect(() => tokens.issue('')).toThrow('UserId is required to generate a token');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['two parts', `${userId}.${stamp}`],
    ['four parts', `${token}.x`],
    ['not a user id', `user.${stamp}.${signature}`],
    ['a timestamp that is not one', `${userId}.12x.${signature}`],
    ['a signature one character short', token.slice(0, -1)],
    ['a signature one character long', `${token}A`],
    ['a signature not base64url', `${userId}.${stamp}.${'+'.repeat(43)}`],
    [
      'a tampered signature',
      `${userId}.${stamp}.${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
    ],
    ['another user put in', `${randomUUID()}.${stamp}.${signature}`],
    ['a later timestamp put in', `${userId}.${Number(stamp) + 1}.${signature}`],
  ])('refuses %s', (_, given) => {
    expect(() => tokens.verify(given)).toThrow(
      expect.objectContaining({ code: 'UNAUTHENTICATED' }),
    );
  });

  it('refuses a token past its lifetime, and one from the far future', () => {
    clock += ttlMs + 1;
    expect(() => tokens.verify(token)).toThrow('expired');
    clock -= ttlMs + 1;
    const ahead = createLiveTokens({ secret, ttlMs, now: () => clock + 60_000 }).issue(userId);
    expect(() => tokens.verify(ahead.token)).toThrow('expired');
  });

  it('refuses a token signed with another secret', () => {
    const other = createLiveTokens({ secret: 'b'.repeat(48), ttlMs, now: () => clock });
    expect(() => tokens.verify(other.issue(userId).token)).toThrow('bad signature');
  });
});
