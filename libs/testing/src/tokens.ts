export interface PasswordGrantOptions {
  /** The realm URL, e.g. http://localhost:8080/realms/noted (Keycloak or the development provider). */
  realmUrl: string;
  email: string;
  /** The development password (NOTED_DEV_PASSWORD), or the Keycloak user's password. */
  password?: string;
  clientId?: string;
}

export interface PasswordGrantTokens {
  accessToken: string;
  idToken?: string;
  refreshToken?: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

/**
 * Gets tokens with Keycloak's direct access grant, as scripts, tests and benchmarks do.
 * Throws with the provider's answer when it refuses.
 */
export const passwordGrant = async ({
  realmUrl,
  email,
  password = 'noted',
  clientId = 'noted-cli',
}: PasswordGrantOptions): Promise<PasswordGrantTokens> => {
  const response = await fetch(`${realmUrl.replace(/\/+$/, '')}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: clientId,
      username: email,
      password,
      scope: 'openid',
    }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`password grant for ${email} failed: ${response.status} ${text}`);
  }
  const body = JSON.parse(text) as Record<string, unknown>;
  if (typeof body.access_token !== 'string') {
    throw new Error(`password grant for ${email} answered without an access token: ${text}`);
  }
  return {
    accessToken: body.access_token,
    ...(typeof body.id_token === 'string' ? { idToken: body.id_token } : {}),
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
    expiresIn: typeof body.expires_in === 'number' ? body.expires_in : 0,
  };
};
