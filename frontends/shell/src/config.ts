export interface KeycloakSettings {
  url: string;
  realm: string;
  clientId: string;
  /** Identity providers brokered by the realm (e.g. google, github), offered at sign-in. */
  identityProviders: string[];
}

/** What the gateway answers at /config.json: every address is given at runtime. */
export interface ShellConfig {
  apiBaseUrl: string;
  keycloak: KeycloakSettings;
  /** Where the browser goes after signing out. */
  logoutUrl: string;
  remotes: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const requireString = (value: unknown, field: string): string => {
  if (typeof value !== 'string') throw new Error(`config.json: ${field} must be a string`);
  return value;
};

const stringList = (value: unknown, field: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`config.json: ${field} must be a list`);
  return value.map((item, index) => requireString(item, `${field}[${index}]`));
};

export const parseConfig = (value: unknown): ShellConfig => {
  if (!isRecord(value)) throw new Error('config.json: expected an object');
  const { keycloak, remotes } = value;
  if (!isRecord(keycloak)) throw new Error('config.json: keycloak must be an object');
  if (!isRecord(remotes)) throw new Error('config.json: remotes must be an object');
  return {
    apiBaseUrl: requireString(value.apiBaseUrl, 'apiBaseUrl'),
    keycloak: {
      url: requireString(keycloak.url, 'keycloak.url'),
      realm: requireString(keycloak.realm, 'keycloak.realm'),
      clientId: requireString(keycloak.clientId, 'keycloak.clientId'),
      identityProviders: stringList(keycloak.identityProviders, 'keycloak.identityProviders'),
    },
    logoutUrl: value.logoutUrl === undefined ? '/' : requireString(value.logoutUrl, 'logoutUrl'),
    remotes: Object.fromEntries(
      Object.entries(remotes).map(([name, url]) => [name, requireString(url, `remotes.${name}`)]),
    ),
  };
};

export const loadConfig = async (fetchFn: typeof fetch = fetch): Promise<ShellConfig> => {
  const response = await fetchFn('/config.json', {
    headers: { accept: 'application/json' },
    cache: 'no-cache',
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  return parseConfig(await response.json());
};
