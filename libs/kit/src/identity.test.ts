import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from '@noted/api';
import {
  identitySigner,
  signCaller,
  signIdentity,
  verifyCaller,
  verifyIdentity,
} from './identity.js';

const secret = 'a-secret-of-at-least-thirty-two-chars!!';
const ada = {
  userId: '6f1c2f9e-0f4e-4a51-9f0e-6f4d7f1b2c3d',
  sub: 'sub-ada',
  email: 'ada@example.com',
  name: 'Ada',
};

describe('gateway identities', () => {
  it('round-trips what the gateway signs', async () => {
    expect(await verifyIdentity(secret, await signIdentity(secret, ada))).toEqual(ada);
  });

  it('carries roles, and none for a user without any', async () => {
    const operator = { ...ada, roles: ['operator'] };
    expect(await verifyIdentity(secret, await signIdentity(secret, operator))).toEqual(operator);
    expect(await verifyIdentity(secret, await signIdentity(secret, { ...ada, roles: [] }))).toEqual(
      ada,
    );
  });

  it('refuses an identity signed with another secret', async () => {
    const forged = await signIdentity('another-secret-that-is-thirty-two-chars', ada);
    await expect(verifyIdentity(secret, forged)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses an expired identity', async () => {
    const expired = await signIdentity(secret, ada, -60);
    await expect(verifyIdentity(secret, expired)).rejects.toBeInstanceOf(AppError);
  });

  it('refuses a service-caller token used as a user identity', async () => {
    await expect(verifyIdentity(secret, await signCaller(secret, 'notes'))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses an unsigned token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: ada.sub, uid: ada.userId })).toString(
      'base64url',
    );
    await expect(verifyIdentity(secret, `${header}.${body}.`)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});

describe('reusing verified and signed tokens', () => {
  it('hands out one token per identity, and another for a changed identity', async () => {
    const sign = identitySigner(secret);
    const first = await sign(ada);
    expect(await sign({ ...ada })).toBe(first);
    const renamed = await sign({ ...ada, name: 'Ada L.' });
    expect(renamed).not.toBe(first);
    expect(await verifyIdentity(secret, renamed)).toMatchObject({ name: 'Ada L.' });
  });

  it('hands out another token once the user holds a role, and again once it is taken away', async () => {
    const sign = identitySigner(secret);
    const plain = await sign(ada);
    const granted = await sign({ ...ada, roles: ['operator'] });
    expect(granted).not.toBe(plain);
    expect(await verifyIdentity(secret, granted)).toMatchObject({ roles: ['operator'] });
    expect(await verifyIdentity(secret, await sign(ada))).not.toHaveProperty('roles');
  });

  it('remembers a verified token, but not for a changed token or another secret', async () => {
    const token = await signIdentity(secret, ada);
    expect(await verifyIdentity(secret, token)).toEqual(ada);
    expect(await verifyIdentity(secret, token)).toEqual(ada);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(verifyIdentity(secret, tampered)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(
      verifyIdentity('another-secret-that-is-thirty-two-chars', token),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const caller = await signCaller(secret, 'notes');
    expect(await verifyCaller(secret, caller)).toBe('notes');
    await expect(verifyIdentity(secret, caller)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});

describe('service callers', () => {
  it('names the calling service', async () => {
    expect(await verifyCaller(secret, await signCaller(secret, 'gateway'))).toBe('gateway');
  });

  it('refuses a missing token and a user identity', async () => {
    await expect(verifyCaller(secret, undefined)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(verifyCaller(secret, await signIdentity(secret, ada))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses a token whose subject is not a service', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user:ada')
      .setIssuer('noted-gateway')
      .setAudience('noted-grpc')
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(secret));
    await expect(verifyCaller(secret, token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
