import { createHttpApp, finishHttpApp, listen, type Logger, type RunningModule } from '@noted/kit';
import { AccountStore, normalizeEmail } from './accounts.js';
import { adminRouter } from './admin.js';
import { createPages } from './pages.js';
import { createProvider } from './provider.js';
import { createRefreshTokenEnvelope } from './refresh-tokens.js';
import { loadSecrets } from './secrets.js';
import { refuseForeignPreflight, securityHeaders } from './security.js';
import { signInRouter } from './sign-in.js';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimits, type SignInLimitOptions } from './sign-in-limits.js';
import { StateStore } from './store.js';
import { thirdPartyCookiesRouter } from './third-party-cookies.js';
import { userinfoRouter } from './userinfo.js';

export interface IdentityOptions {
  /** Public realm URL, exactly as tokens carry it, e.g. http://localhost:8080/realms/noted. */
  issuer: string;
  port: number;
  host?: string;
  /** Keys, accounts and sessions live under `<dataDir>/identity`. */
  dataDir: string;
  /** The one password of the direct access grant (`grant_type=password`). */
  devPassword: string;
  /** Origins whose pages noted-web may redirect back to, e.g. ['http://localhost:8080']. */
  webRedirectOrigins: string[];
  logger: Logger;
  /** Lifetime of access and ID tokens; Keycloak's default is 300. */
  accessTokenTtlSeconds?: number;
  /** Failed sign-ins allowed per account and per address; `DEFAULT_SIGN_IN_LIMITS` by default. */
  signInLimits?: SignInLimitOptions;
  /** Accounts whose access tokens carry `adminRole` in `realm_access.roles`; none by default. */
  adminEmails?: readonly string[];
  /** The realm role those accounts hold; `noted-admin` by default. */
  adminRole?: string;
  /**
   * Noted's internal secret: with it, the users service deletes accounts here through
   * Keycloak's admin path (`DELETE /admin/realms/{realm}/users/{sub}`); without, nothing does.
   */
  internalSecret?: string;
}

export interface RunningIdentity extends RunningModule {
  /** Where this server listens, e.g. http://127.0.0.1:4100 (the gateway proxies /realms/* here). */
  url: string;
  /** `url` plus the realm path, e.g. http://127.0.0.1:4100/realms/noted. */
  realmUrl: string;
  /**
   * Deletes an account (a deleted Noted account, through the admin route) and ends its sessions
   * and tokens: its refresh tokens stop working and the same email signs up again as a new
   * account. Safe to call again.
   */
  forgetAccount(sub: string): Promise<{ account: boolean; sessions: number }>;
}

/**
 * The development OpenID provider: oidc-provider with Keycloak's URL layout, JWT access tokens
 * for `noted-api`, a one-form sign-in page for noted-web and the password grant for noted-cli.
 */
export const startIdentity = async (options: IdentityOptions): Promise<RunningIdentity> => {
  const { issuer, dataDir, logger } = options;
  const issuerUrl = new URL(issuer);
  const realmPath = issuerUrl.pathname.replace(/\/+$/, '');
  if (!realmPath)
    throw new Error(`identity issuer ${issuer} needs a realm path, such as /realms/noted`);
  const webOrigins = options.webRedirectOrigins.map((origin) => new URL(origin).origin);

  const secrets = await loadSecrets(dataDir);
  const refreshTokens = createRefreshTokenEnvelope({ issuer, key: secrets.refreshTokenKey });
  const accounts = await AccountStore.open(dataDir);
  const store = await StateStore.open(dataDir, {
    resolveId: { RefreshToken: refreshTokens.open },
    onWriteError: (error) => logger.error({ err: error }, 'identity state could not be saved'),
  });
  const signInLimits = new SignInLimits(options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS);
  const pages = createPages(realmPath);
  const provider = createProvider({
    issuer,
    realmPath,
    pages,
    webOrigins,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 300,
    devPassword: options.devPassword,
    secrets,
    accounts,
    store,
    refreshTokens,
    signInLimits,
    admins: {
      emails: new Set((options.adminEmails ?? []).map(normalizeEmail)),
      role: options.adminRole ?? 'noted-admin',
    },
    logger,
  });

  const forgetAccount = async (sub: string) => {
    const sessions = store.forgetAccount(sub);
    return { account: await accounts.forget(sub), sessions };
  };

  let running = false;
  const app = createHttpApp({ service: 'identity', logger, ready: () => running, json: false });
  app.use(securityHeaders({ https: issuerUrl.protocol === 'https:' }));
  if (options.internalSecret) {
    app.use(
      adminRouter({ realmPath, internalSecret: options.internalSecret, forgetAccount, logger }),
    );
  }
  app.use(
    realmPath,
    refuseForeignPreflight(webOrigins),
    signInRouter({ provider, accounts, webOrigins, limits: signInLimits, logger, pages }),
    thirdPartyCookiesRouter({ webOrigins }),
    userinfoRouter({ issuer, publicJwks: secrets.publicJwks, accounts, webOrigins }),
    provider.callback(),
  );
  finishHttpApp(app, logger);

  const server = await listen(app, options.port, options.host);
  running = true;
  logger.info({ issuer, url: server.url }, 'development identity provider listening');

  return {
    url: server.url,
    realmUrl: `${server.url}${realmPath}`,
    ready: () => running,
    forgetAccount,
    stop: async () => {
      running = false;
      await server.close();
      await store.flush();
    },
  };
};
