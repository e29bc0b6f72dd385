import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCaller } from '@noted/kit';
import type { RunningIdentity } from './index.js';
import { removeDir, startTestIdentity, tempDataDir } from './test/browser.js';

const secret = randomBytes(32).toString('base64url');

const token = (identity: RunningIdentity, fields: Record<string, string>) =>
  fetch(`${identity.realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: 'noted-cli', ...fields }),
  });

const signIn = async (identity: RunningIdentity, email: string) => {
  const response = await token(identity, {
    grant_type: 'password',
    username: email,
    password: 'noted',
  });
  expect(response.status).toBe(200);
  const tokens = (await response.json()) as { access_token: string };
  return { sub: decodeJwt(tokens.access_token).sub ?? '' };
};

/** Keycloak's admin call that deletes a user, as the users service makes it. */
const deleteAccount = async (identity: RunningIdentity, sub: string, bearer?: string) =>
  (
    await fetch(`${identity.url}/admin/realms/noted/users/${encodeURIComponent(sub)}`, {
      method: 'DELETE',
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    })
  ).status;

describe("the development provider's admin route (Keycloak's DELETE /admin/realms/{realm}/users/{id})", () => {
  let dataDir: string;
  let identity: RunningIdentity;

  beforeAll(async () => {
    dataDir = await tempDataDir();
    identity = await startTestIdentity(dataDir, { internalSecret: secret });
  });

  afterAll(async () => {
    await identity?.stop();
    await removeDir(dataDir);
  });

  it('deletes an account for the users service only, and answers 404 once it is gone', async () => {
    const email = `leaving-${randomUUID()}@example.com`;
    const { sub } = await signIn(identity, email);

    expect(await deleteAccount(identity, sub)).toBe(401);
    expect(await deleteAccount(identity, sub, 'not-a-token')).toBe(401);
    const forged = await signCaller(randomBytes(32).toString('base64url'), 'users');
    expect(await deleteAccount(identity, sub, forged)).toBe(401);
    expect(await deleteAccount(identity, sub, await signCaller(secret, 'notes'))).toBe(403);
    // Refused calls changed nothing: the email still signs in as the same account.
    expect((await signIn(identity, email)).sub).toBe(sub);

    const users = await signCaller(secret, 'users');
    expect(await deleteAccount(identity, sub, users)).toBe(204);
    // Gone: a second delivery finds nothing (Keycloak's 404), and the email signs up anew.
    expect(await deleteAccount(identity, sub, users)).toBe(404);
    expect((await signIn(identity, email)).sub).not.toBe(sub);
  });

  it('is not served without the internal secret', async () => {
    const otherDir = await tempDataDir();
    const bare = await startTestIdentity(otherDir);
    try {
      const email = `kept-${randomUUID()}@example.com`;
      const { sub } = await signIn(bare, email);
      // No such route: the account stays.
      expect(await deleteAccount(bare, sub, await signCaller(secret, 'users'))).toBe(404);
      expect((await signIn(bare, email)).sub).toBe(sub);
    } finally {
      await bare.stop();
      await removeDir(otherDir);
    }
  });
});
