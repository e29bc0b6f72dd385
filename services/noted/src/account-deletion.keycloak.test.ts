import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, User } from '@noted/api';
import { registry } from '@noted/kit';
import { userEvents } from '@noted/proto';
import {
  keycloakAdmin,
  passwordGrant,
  testKeycloak,
  type KeycloakAdmin,
  type TestKeycloak,
} from '@noted/testing';
import { getTestApp, infraLabel, json, type TestApp } from './test/app.js';

const keycloak = testKeycloak();

/** The realm's service-account client for the users service, as deploy/keycloak ships it. */
const CLIENT_ID = 'noted-users';

const identityErasures = async () => {
  const metric = await registry.getSingleMetric('noted_user_erasures_total')?.get();
  const count = (outcome: string) =>
    metric?.values.find(
      (value) => value.labels.service === 'identity' && value.labels.outcome === outcome,
    )?.value ?? 0;
  return { erased: count('erased'), failed: count('failed') };
};

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** The suite, given a running Keycloak. */
const againstKeycloak = (kc: TestKeycloak) => () => {
  const realmUrl = `${kc.url}/realms/noted`;
  let admin: KeycloakAdmin;
  let app: TestApp;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    admin = keycloakAdmin(kc);
    // Keycloak made the client's secret when it imported the realm; an operator copies it from
    // the client's Credentials tab into KEYCLOAK_ADMIN_CLIENT_SECRET, as this does.
    const [client] = (await (
      await admin.call('GET', `/noted/clients?clientId=${CLIENT_ID}`)
    ).json()) as { id: string }[];
    if (!client) throw new Error(`realm noted has no client ${CLIENT_ID}: import it again`);
    const { value: secret } = (await (
      await admin.call('GET', `/noted/clients/${client.id}/client-secret`)
    ).json()) as { value: string };
    app = await getTestApp({
      env: { KEYCLOAK_URL: kc.url, KEYCLOAK_ADMIN_CLIENT_SECRET: secret },
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it("deletes the account's Keycloak user, and takes a user Keycloak no longer has as done", async () => {
    const leaving = await admin.createUser('noted', { firstName: 'Ada', lastName: 'Leaving' });
    const staying = await admin.createUser('noted', { firstName: 'Bo', lastName: 'Staying' });
    cleanup.push(() => admin.deleteUser('noted', leaving.id));
    cleanup.push(() => admin.deleteUser('noted', staying.id));
    const { accessToken } = await passwordGrant({
      realmUrl,
      email: leaving.email,
      password: leaving.password,
    });
    const user = await json<User>(app.api(accessToken, 'GET', '/user'));
    expect(user.authId).toBe(leaving.id);

    const before = await identityErasures();
    const deleted = await app.api(accessToken, 'DELETE', '/user', { confirm: leaving.email });
    expect(deleted.status).toBe(202);

    // Gone from Keycloak: not found by email, and its password no longer signs in.
    expect(
      await waitFor(
        () => admin.findUserByEmail('noted', leaving.email),
        (id) => id === undefined,
      ),
    ).toBeUndefined();
    await expect(
      passwordGrant({ realmUrl, email: leaving.email, password: leaving.password }),
    ).rejects.toThrow(/invalid_grant/);
    expect(await admin.findUserByEmail('noted', staying.email)).toBe(staying.id);
    const refused = await app.api(accessToken, 'GET', '/user');
    expect(refused.status).toBe(401);
    expect((await json<ErrorBody>(refused)).error.code).toBe('ACCOUNT_DELETED');
    const once = await waitFor(identityErasures, (counts) => counts.erased > before.erased);
    expect(once).toEqual({ erased: before.erased + 1, failed: before.failed });

    // A second delivery finds no such user at Keycloak (404), which is success, not a retry.
    await app.noted.bus?.publish(
      userEvents.deleted.subject,
      userEvents.deleted.encode({
        eventId: randomUUID(),
        userId: user.userId,
        authId: user.authId,
      }),
      { id: randomUUID() },
    );
    const twice = await waitFor(identityErasures, (counts) => counts.erased > once.erased);
    expect(twice).toEqual({ erased: once.erased + 1, failed: before.failed });
  });
};

if (keycloak) {
  describe(
    `Deleting an account with a real Keycloak at ${keycloak.url}, realm noted imported from deploy/keycloak (${infraLabel})`,
    againstKeycloak(keycloak),
  );
} else {
  describe.skip('Deleting an account with a real Keycloak: skipped, TEST_KEYCLOAK_URL is not set', () => {
    it('runs once eval "$(deploy/local/keycloak.sh)" has set it', () => undefined);
  });
}
