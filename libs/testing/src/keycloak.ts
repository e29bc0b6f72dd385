import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { infraUrl } from './infra.js';

/**
 * A real Keycloak for the suites that need one (deploy/local/keycloak.sh starts it and prints
 * these variables). Without TEST_KEYCLOAK_URL the suites are skipped, unless
 * NOTED_REQUIRE_KEYCLOAK=1 (npm run test:keycloak) or NOTED_REQUIRE_INFRA=1 makes that a
 * failure; the first asks for Keycloak alone, not for Postgres and NATS as well.
 */
export const testKeycloak = () => {
  if (process.env.NOTED_REQUIRE_KEYCLOAK === '1' && !process.env.TEST_KEYCLOAK_URL) {
    throw new Error(
      'Keycloak is required (NOTED_REQUIRE_KEYCLOAK=1) but TEST_KEYCLOAK_URL is not set',
    );
  }
  const url = infraUrl('Keycloak', 'TEST_KEYCLOAK_URL');
  if (!url) return undefined;
  const password = process.env.TEST_KEYCLOAK_ADMIN_PASSWORD;
  if (!password)
    throw new Error('TEST_KEYCLOAK_URL is set but TEST_KEYCLOAK_ADMIN_PASSWORD is not');
  return {
    url: url.replace(/\/+$/, ''),
    admin: { username: process.env.TEST_KEYCLOAK_ADMIN_USER ?? 'admin', password },
  };
};

export type TestKeycloak = NonNullable<ReturnType<typeof testKeycloak>>;

/** The realm Noted ships, as deploy/keycloak/realm-noted.json has it. */
export const notedRealmFile = (): {
  clients: { clientId: string; protocolMappers?: Record<string, unknown>[] }[];
} =>
  JSON.parse(
    readFileSync(new URL('../../../deploy/keycloak/realm-noted.json', import.meta.url), 'utf8'),
  ) as ReturnType<typeof notedRealmFile>;

export interface KeycloakUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Keycloak's admin REST API, signed in as the master realm's admin through admin-cli. Its
 * tokens live a minute, so a new one is fetched for any call made 30 s after the last fetch.
 */
export const keycloakAdmin = (keycloak: TestKeycloak) => {
  let token: { value: string; fetchedAt: number } | undefined;

  const adminToken = async () => {
    if (token && Date.now() - token.fetchedAt < 30_000) return token.value;
    const response = await fetch(`${keycloak.url}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: 'admin-cli',
        username: keycloak.admin.username,
        password: keycloak.admin.password,
      }),
    });
    if (!response.ok) {
      throw new Error(`Keycloak admin sign-in failed: ${response.status} ${await response.text()}`);
    }
    const body = (await response.json()) as { access_token: string };
    token = { value: body.access_token, fetchedAt: Date.now() };
    return token.value;
  };

  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const response = await fetch(`${keycloak.url}/admin/realms${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await adminToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(
        `Keycloak ${method} ${path} answered ${response.status}: ${await response.text()}`,
      );
    }
    return response;
  };

  /** The id at the end of a 201's Location header. */
  const createdId = (response: Response) => {
    const location = response.headers.get('location') ?? '';
    return location.slice(location.lastIndexOf('/') + 1);
  };

  return {
    call,

    /** A realm from its representation, as an import does; `realm` names it. */
    createRealm: async (representation: { realm: string } & Record<string, unknown>) => {
      await call('POST', '', representation);
    },
    deleteRealm: async (realm: string) => {
      await call('DELETE', `/${encodeURIComponent(realm)}`);
    },

    createClient: async (realm: string, representation: Record<string, unknown>) =>
      createdId(await call('POST', `/${realm}/clients`, representation)),
    deleteClient: async (realm: string, id: string) => {
      await call('DELETE', `/${realm}/clients/${id}`);
    },

    /** A user who can sign in at once: email verified, a password, no required action. */
    createUser: async (
      realm: string,
      profile: Partial<Omit<KeycloakUser, 'id'>> = {},
    ): Promise<KeycloakUser> => {
      const user = {
        email: profile.email ?? `kc-${randomUUID().slice(0, 8)}@example.com`,
        password: profile.password ?? `pw-${randomUUID()}`,
        firstName: profile.firstName ?? 'Test',
        lastName: profile.lastName ?? 'User',
      };
      const response = await call('POST', `/${realm}/users`, {
        username: user.email,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        enabled: true,
        emailVerified: true,
        credentials: [{ type: 'password', value: user.password, temporary: false }],
      });
      return { id: createdId(response), ...user };
    },
    /** Changes a user's profile as an administrator (or the user, in the account console) does. */
    updateUser: async (
      realm: string,
      id: string,
      changes: Partial<Pick<KeycloakUser, 'email' | 'firstName' | 'lastName'>>,
    ) => {
      const current = (await (await call('GET', `/${realm}/users/${id}`)).json()) as Record<
        string,
        unknown
      >;
      await call('PUT', `/${realm}/users/${id}`, { ...current, ...changes });
    },
    assignRealmRole: async (realm: string, userId: string, role: string) => {
      const representation = await (await call('GET', `/${realm}/roles/${role}`)).json();
      await call('POST', `/${realm}/users/${userId}/role-mappings/realm`, [representation]);
    },
    deleteUser: async (realm: string, id: string) => {
      await call('DELETE', `/${realm}/users/${id}`);
    },
    /** The user's id in the realm, by email; undefined when there is none. */
    findUserByEmail: async (realm: string, email: string) => {
      const response = await call(
        'GET',
        `/${realm}/users?exact=true&email=${encodeURIComponent(email)}`,
      );
      const users = (await response.json()) as { id: string }[];
      return users[0]?.id;
    },
  };
};

export type KeycloakAdmin = ReturnType<typeof keycloakAdmin>;
