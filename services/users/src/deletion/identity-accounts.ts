import { signCaller } from '@noted/kit';

/**
 * The identity provider's accounts, as the deletion of a Noted account needs them: the account
 * of a token subject goes. Keycloak's admin REST API, which the development provider serves
 * too (`DELETE /admin/realms/{realm}/users/{id}`); only the bearer token differs.
 */
export interface IdentityAccounts {
  /** `keycloak` or `development`, for the log. */
  provider: string;
  /**
   * Deletes the account of `subject`: `deleted`, or `absent` when the provider has none (gone
   * already: a second delivery, or deleted by an operator). Throws on anything else, so the
   * event is delivered again.
   */
  delete(subject: string): Promise<'deleted' | 'absent'>;
}

export type IdentityAccountsConfig =
  | {
      provider: 'keycloak';
      /** Keycloak's base URL as this service reaches it (`KEYCLOAK_ADMIN_URL` or `KEYCLOAK_URL`). */
      url: string;
      realm: string;
      /** The service-account client with realm-management's `manage-users` role. */
      clientId: string;
      /** Unset: Keycloak's accounts are not deleted (the start-up log says so). */
      clientSecret: string | undefined;
    }
  | {
      provider: 'development';
      /** Where the development provider listens (IDENTITY_URL, or the one of this process). */
      url: string;
      realm: string;
    };

/** An identity provider's answer that is neither done nor absent; never carries a credential. */
export class IdentityAccountError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'IdentityAccountError';
  }
}

const TIMEOUT_MS = 10_000;

const deleteWith = async (
  options: {
    provider: string;
    url: string;
    realm: string;
    /** What to check when the provider refuses the caller (401 or 403). */
    refusedHint: string;
  },
  subject: string,
  bearer: (renew: boolean) => Promise<string>,
): Promise<'deleted' | 'absent'> => {
  const address = `${options.url.replace(/\/+$/, '')}/admin/realms/${encodeURIComponent(
    options.realm,
  )}/users/${encodeURIComponent(subject)}`;
  const attempt = async (renew: boolean) =>
    fetch(address, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${await bearer(renew)}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  let response = await attempt(false);
  // A token the provider no longer takes (restarted, revoked): once more with a new one.
  if (response.status === 401) {
    await response.body?.cancel();
    response = await attempt(true);
  }
  await response.body?.cancel();
  if (response.status === 204 || response.status === 200) return 'deleted';
  if (response.status === 404) return 'absent';
  const hint = response.status === 401 || response.status === 403 ? `: ${options.refusedHint}` : '';
  throw new IdentityAccountError(
    `${options.provider} answered ${response.status} to deleting an account${hint}`,
    response.status,
  );
};

/**
 * Keycloak's admin REST API with a client-credentials token of a service-account client,
 * reused until 30 s before it expires.
 */
export const keycloakAccounts = (options: {
  url: string;
  realm: string;
  clientId: string;
  clientSecret: string;
}): IdentityAccounts => {
  const base = options.url.replace(/\/+$/, '');
  let token: { value: string; renewAt: number } | undefined;

  const fetchToken = async () => {
    const response = await fetch(
      `${base}/realms/${encodeURIComponent(options.realm)}/protocol/openid-connect/token`,
      {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    );
    if (!response.ok) {
      await response.body?.cancel();
      const hint =
        response.status === 400 || response.status === 401
          ? `: check KEYCLOAK_ADMIN_CLIENT_ID (${options.clientId}) and KEYCLOAK_ADMIN_CLIENT_SECRET`
          : '';
      throw new IdentityAccountError(
        `Keycloak answered ${response.status} to the client-credentials grant${hint}`,
        response.status,
      );
    }
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string') {
      throw new IdentityAccountError(
        'Keycloak answered the client-credentials grant with no token',
      );
    }
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 60) * 1000;
    token = { value: body.access_token, renewAt: Date.now() + Math.max(0, lifetimeMs - 30_000) };
    return token.value;
  };

  return {
    provider: 'keycloak',
    delete: (subject) =>
      deleteWith(
        {
          provider: 'Keycloak',
          url: base,
          realm: options.realm,
          refusedHint: `check that ${options.clientId}'s service account has realm-management's manage-users role`,
        },
        subject,
        (renew) =>
          !renew && token && Date.now() < token.renewAt
            ? Promise.resolve(token.value)
            : fetchToken(),
      ),
  };
};

/**
 * The development provider's admin route (services/identity), for the bearer of a caller token
 * of the users service signed with the internal secret.
 */
export const developmentAccounts = (options: {
  url: string;
  realm: string;
  internalSecret: string;
}): IdentityAccounts => ({
  provider: 'development',
  delete: (subject) =>
    deleteWith(
      {
        provider: 'The development identity provider',
        url: options.url,
        realm: options.realm,
        refusedHint: 'check that it runs with the same NOTED_INTERNAL_SECRET',
      },
      subject,
      () => signCaller(options.internalSecret, 'users', 60),
    ),
});

/** The accounts the configuration names; undefined for Keycloak without the client's secret. */
export const identityAccountsFrom = (
  config: IdentityAccountsConfig,
  internalSecret: string,
): IdentityAccounts | undefined => {
  if (config.provider === 'development') return developmentAccounts({ ...config, internalSecret });
  if (!config.clientSecret) return undefined;
  return keycloakAccounts({ ...config, clientSecret: config.clientSecret });
};
