import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { User } from '@noted/api';
import {
  keycloakAdmin,
  notedRealmFile,
  passwordGrant,
  testKeycloak,
  type KeycloakAdmin,
  type KeycloakUser,
  type TestKeycloak,
} from '@noted/testing';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

const keycloak = testKeycloak();

/** The realm file's audience mapper, as noted-cli has it: what puts noted-api in `aud`. */
const audienceMappers = () =>
  (notedRealmFile().clients.find((client) => client.clientId === 'noted-cli')?.protocolMappers ??
    []) as Record<string, unknown>[];

/** A public client for the password grant, as a test-only addition to a realm. */
const passwordClient = (clientId: string, protocolMappers: Record<string, unknown>[] = []) => ({
  clientId,
  publicClient: true,
  standardFlowEnabled: false,
  directAccessGrantsEnabled: true,
  protocolMappers: protocolMappers.map(({ name, protocol, protocolMapper, config }) => ({
    name,
    protocol,
    protocolMapper,
    config,
  })),
});

/** The suite, given a running Keycloak. */
const againstKeycloak = (kc: TestKeycloak) => () => {
  const realmUrl = `${kc.url}/realms/noted`;
  const suffix = randomUUID().slice(0, 8);
  let admin: KeycloakAdmin;
  let app: TestApp;
  let user: KeycloakUser;
  const cleanup: (() => Promise<void>)[] = [];

  const grant = (who: KeycloakUser, options: { realmUrl?: string; clientId?: string } = {}) =>
    passwordGrant({
      realmUrl: options.realmUrl ?? realmUrl,
      email: who.email,
      password: who.password,
      clientId: options.clientId ?? 'noted-cli',
    });

  /** The gateway's answer to GET /user with this bearer token: 200, or 401 and why. */
  const me = async (token: string) => {
    const response = await app.api(token, 'GET', '/user');
    if (response.status === 200) return { status: 200, user: await json<User>(response) };
    const body = (await response.json()) as { error: { code: string; message: string } };
    return { status: response.status, code: body.error.code, message: body.error.message };
  };

  beforeAll(async () => {
    admin = keycloakAdmin(kc);
    user = await admin.createUser('noted', { firstName: 'Ada', lastName: 'Lovelace' });
    cleanup.push(() => admin.deleteUser('noted', user.id));
    app = await getTestApp({ env: { KEYCLOAK_URL: kc.url } });
  }, 120_000);

  afterAll(async () => {
    vi.useRealTimers();
    await app?.stop();
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it('accepts an access token from the realm as shipped: noted-cli puts noted-api in aud', async () => {
    const { accessToken } = await grant(user);
    const claims = decodeJwt(accessToken);
    expect(claims).toMatchObject({ iss: realmUrl, azp: 'noted-cli', typ: 'Bearer' });
    expect([claims.aud].flat()).toContain('noted-api');
    expect(await me(accessToken)).toMatchObject({
      status: 200,
      user: { authId: claims.sub, email: user.email, name: 'Ada Lovelace' },
    });
  });

  it('accepts a token from any client that carries the noted-api audience (the mapper alone)', async () => {
    const clientId = `noted-test-audience-${suffix}`;
    const id = await admin.createClient('noted', passwordClient(clientId, audienceMappers()));
    cleanup.push(() => admin.deleteClient('noted', id));
    const { accessToken } = await grant(user, { clientId });
    expect(decodeJwt(accessToken)).toMatchObject({ azp: clientId });
    expect(await me(accessToken)).toMatchObject({ status: 200 });
  });

  it('refuses a token of the same realm for another client without the audience (wrong audience)', async () => {
    const clientId = `noted-test-foreign-${suffix}`;
    const id = await admin.createClient('noted', passwordClient(clientId));
    cleanup.push(() => admin.deleteClient('noted', id));
    const { accessToken } = await grant(user, { clientId });
    expect([decodeJwt(accessToken).aud].flat()).not.toContain('noted-api');
    expect(await me(accessToken)).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The access token is not meant for noted-api',
    });
  });

  it('refuses the ID token and the refresh token sent as access tokens', async () => {
    const { idToken, refreshToken } = await grant(user);
    expect(idToken && decodeJwt(idToken).typ).toBe('ID');
    expect(await me(idToken ?? '')).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'This is not an access token (an ID or refresh token was sent)',
    });
    // Keycloak signs refresh tokens with a realm secret (HS512), which RS256 pinning refuses.
    expect(await me(refreshToken ?? '')).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it("refuses another realm's token, though it comes from the same Keycloak with the same clients", async () => {
    const realm = `noted-elsewhere-${suffix}`;
    const stranger = {
      email: `stranger-${suffix}@example.com`,
      password: `pw-${randomUUID()}`,
      firstName: 'Stranger',
      lastName: 'Elsewhere',
    };
    await admin.createRealm({
      realm,
      enabled: true,
      clients: [passwordClient('noted-cli', audienceMappers())],
      users: [
        {
          username: stranger.email,
          email: stranger.email,
          firstName: stranger.firstName,
          lastName: stranger.lastName,
          enabled: true,
          emailVerified: true,
          credentials: [{ type: 'password', value: stranger.password, temporary: false }],
        },
      ],
    });
    cleanup.push(() => admin.deleteRealm(realm));
    const { accessToken } = await grant(
      { id: '', ...stranger },
      { realmUrl: `${kc.url}/realms/${realm}` },
    );
    expect(decodeJwt(accessToken)).toMatchObject({
      iss: `${kc.url}/realms/${realm}`,
      aud: 'noted-api',
      azp: 'noted-cli',
    });
    // Its key is not in realm noted's JWKS, which the gateway checks before the issuer.
    expect(await me(accessToken)).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The access token is signed with a key the identity provider does not publish',
    });
  });

  it('refuses a token of realm noted issued under another address of Keycloak (issuer exact)', async () => {
    const other = new URL(kc.url);
    other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const otherRealmUrl = `${other.origin}/realms/noted`;
    const { accessToken } = await grant(user, { realmUrl: otherRealmUrl });
    expect(decodeJwt(accessToken).iss).toBe(otherRealmUrl);
    expect(await me(accessToken)).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The access token was issued by another identity provider',
    });
  });

  // Keycloak offers no way to issue a token that is already expired, and the gateway allows
  // 60 s of clock skew: rather than wait out a token's life and the leeway, the test moves
  // this process's clock (Date only; the gateway runs in it) past the real token's exp.
  it('accepts a token within 60 s after its exp, and refuses it as expired after that', async () => {
    const lately = await grant(user);
    const expired = await grant(user);
    const exp = decodeJwt(expired.accessToken).exp ?? 0;
    expect(exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(60);
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime((exp + 30) * 1000);
      expect(await me(lately.accessToken)).toMatchObject({ status: 200 });
      vi.setSystemTime((exp + 61) * 1000);
      expect(await me(expired.accessToken)).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'The access token has expired; sign in again',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets noted-operator read the realm's users in Keycloak's admin API, and noted-admin change them", async () => {
    const operator = await admin.createUser('noted', { firstName: 'Olive', lastName: 'Operator' });
    const administrator = await admin.createUser('noted', { firstName: 'Adam', lastName: 'Admin' });
    cleanup.push(() => admin.deleteUser('noted', operator.id));
    cleanup.push(() => admin.deleteUser('noted', administrator.id));
    await admin.assignRealmRole('noted', operator.id, 'noted-operator');
    await admin.assignRealmRole('noted', administrator.id, 'noted-admin');
    /** As the admin console does for a realm's own users: admin-cli of realm noted. */
    const consoleCall = async (who: KeycloakUser, method: string, path: string) => {
      const { accessToken } = await grant(who, { clientId: 'admin-cli' });
      const response = await fetch(`${kc.url}/admin/realms${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: method === 'PUT' ? JSON.stringify({ firstName: 'Renamed' }) : undefined,
      });
      return response.status;
    };
    expect(await consoleCall(operator, 'GET', `/noted/users/${user.id}`)).toBe(200);
    expect(await consoleCall(operator, 'PUT', `/noted/users/${operator.id}`)).toBe(403);
    expect(await consoleCall(operator, 'GET', '/master/users')).toBe(403);
    expect(await consoleCall(administrator, 'PUT', `/noted/users/${operator.id}`)).toBe(204);
    expect(await consoleCall(user, 'GET', `/noted/users/${user.id}`)).toBe(403);

    // Noted's own tokens carry the roles (and only Noted's: noted-web and noted-cli have no full scope).
    const { accessToken } = await grant(administrator);
    expect(decodeJwt(accessToken).realm_access).toEqual({
      roles: expect.arrayContaining(['noted-admin', 'noted-operator']) as string[],
    });
  });

  it("shows a name and email changed in Keycloak with the user's next token", async () => {
    const person = await admin.createUser('noted', { firstName: 'Mary', lastName: 'Somerville' });
    cleanup.push(() => admin.deleteUser('noted', person.id));
    const before = await grant(person);
    const first = await me(before.accessToken);
    expect(first).toMatchObject({
      status: 200,
      user: { email: person.email, name: 'Mary Somerville' },
    });

    const newEmail = `mary.fairfax-${suffix}@example.com`;
    await admin.updateUser('noted', person.id, {
      firstName: 'Mary',
      lastName: 'Fairfax',
      email: newEmail,
    });
    // The token in hand still says what Keycloak said when it was issued.
    expect(await me(before.accessToken)).toMatchObject({
      user: { email: person.email, name: 'Mary Somerville' },
    });

    // The next token, by refresh as keycloak-js gets it, carries the change, and Noted keeps it.
    // Tokens are dated to the second and Noted keeps the profile of the later one: the refresh
    // is made in a later second than the first token, as it is in use (minutes later).
    const firstIssuedAt = decodeJwt(before.accessToken).iat ?? 0;
    while (Math.floor(Date.now() / 1000) <= firstIssuedAt) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const refreshed = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'noted-cli',
        refresh_token: before.refreshToken ?? '',
      }),
    });
    expect(refreshed.status).toBe(200);
    const { access_token: next } = (await refreshed.json()) as { access_token: string };
    const after = await me(next);
    expect(after).toMatchObject({
      status: 200,
      user: { email: newEmail, name: 'Mary Fairfax' },
    });
    expect(after.user?.userId).toBe(first.user?.userId);

    // Stored, not only passed through: the old token no longer brings the old name back.
    expect(await me(before.accessToken)).toMatchObject({
      user: { email: newEmail, name: 'Mary Fairfax' },
    });
  });
};

if (keycloak) {
  describe(
    `Noted with a real Keycloak at ${keycloak.url}, realm noted imported from deploy/keycloak (${infraLabel})`,
    againstKeycloak(keycloak),
  );
} else {
  describe.skip('Noted with a real Keycloak: skipped, TEST_KEYCLOAK_URL is not set', () => {
    it('runs once eval "$(deploy/local/keycloak.sh)" has set it', () => undefined);
  });
}
