import Provider, {
  errors,
  type Account,
  type Configuration,
  type KoaContextWithOIDC,
  type ResourceServer,
} from 'oidc-provider';
import type { Logger } from '@noted/kit';
import { accountClaims, type AccountStore } from './accounts.js';
import {
  API_AUDIENCE,
  API_RESOURCE,
  CLI_CLIENT_ID,
  GRANTED_SCOPE,
  LOGIN_ACTIONS,
  ROUTES,
  WEB_CLIENT_ID,
} from './constants.js';
import type { Page, Pages } from './pages.js';
import { registerPasswordGrant } from './password-grant.js';
import type { RefreshTokenEnvelope } from './refresh-tokens.js';
import type { IdentitySecrets } from './secrets.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { StateStore } from './store.js';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface ProviderDeps {
  issuer: string;
  realmPath: string;
  pages: Pages;
  webOrigins: readonly string[];
  accessTokenTtlSeconds: number;
  devPassword: string;
  secrets: IdentitySecrets;
  accounts: AccountStore;
  store: StateStore;
  refreshTokens: RefreshTokenEnvelope;
  signInLimits: SignInLimits;
  /** Accounts (normalized emails) given `role` in their access tokens. */
  admins: { emails: ReadonlySet<string>; role: string };
  logger: Logger;
}

const sendPage = (ctx: KoaContextWithOIDC, page: Page) => {
  ctx.type = 'html';
  ctx.set('content-security-policy', page.csp);
  ctx.body = page.html;
};

/** Origins a redirect may go to: any path under an allowed origin, no credentials, no fragment. */
const underOrigin = (value: string, origins: readonly string[]): boolean => {
  const url = URL.parse(value);
  return (
    url !== null &&
    origins.includes(url.origin) &&
    url.username === '' &&
    url.password === '' &&
    !value.includes('#')
  );
};

export const createProvider = (deps: ProviderDeps): Provider => {
  const { accounts, logger, webOrigins, accessTokenTtlSeconds } = deps;
  const { errorPage, signedOutPage, signOutPage } = deps.pages;
  const originsOf = (clientId: string): readonly string[] =>
    clientId === WEB_CLIENT_ID ? webOrigins : [];

  const resourceServer: ResourceServer = {
    scope: GRANTED_SCOPE,
    audience: API_AUDIENCE,
    accessTokenFormat: 'jwt',
    accessTokenTTL: accessTokenTtlSeconds,
    jwt: { sign: { alg: 'RS256' } },
  };

  const findAccount = (sub: string): Account | undefined => {
    const account = accounts.bySub(sub);
    if (!account) return undefined;
    return { accountId: account.sub, claims: () => accountClaims(account) };
  };

  const configuration: Configuration = {
    adapter: deps.store.adapter,
    clients: [
      {
        client_id: WEB_CLIENT_ID,
        client_name: 'Noted',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: webOrigins.map((origin) => `${origin}/`),
        post_logout_redirect_uris: webOrigins.map((origin) => `${origin}/`),
      },
      {
        client_id: CLI_CLIENT_ID,
        client_name: 'Noted scripts and tests',
        token_endpoint_auth_method: 'none',
        grant_types: ['password'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    clientAuthMethods: ['none'],
    clientBasedCORS: (_ctx, origin, client) => originsOf(client.clientId).includes(origin),
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    // Keycloak's default client scopes put profile and email in every token; listing those
    // claims under openid does the same for clients (keycloak-js) that ask for openid only.
    claims: {
      openid: ['sub', 'email', 'email_verified', 'name', 'preferred_username'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    findAccount: (_ctx, sub) => findAccount(sub),
    jwks: { keys: deps.secrets.signingKeys },
    cookies: {
      keys: deps.secrets.cookieKeys,
      names: {
        session: 'noted_idp_session',
        interaction: 'noted_idp_interaction',
        resume: 'noted_idp_resume',
      },
    },
    routes: ROUTES,
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => {
          if (!oneOf) return API_RESOURCE;
          return oneOf.includes(API_RESOURCE) ? API_RESOURCE : (oneOf[0] ?? API_RESOURCE);
        },
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== API_RESOURCE) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        // keycloak-js sends the id token as a hint; with it, sign out without asking.
        logoutSource: (ctx, form) => {
          sendPage(ctx, signOutPage(form, ctx.oidc.entities.IdTokenHint !== undefined, webOrigins));
        },
        postLogoutSuccessSource: (ctx) => {
          sendPage(ctx, signedOutPage(webOrigins[0] ? `${webOrigins[0]}/` : undefined));
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${deps.realmPath}${LOGIN_ACTIONS}/${interaction.uid}`,
    },
    // First-party clients are consented in advance, as Keycloak does without "consent required".
    loadExistingGrant: async (ctx) => {
      const { client, account, session, result } = ctx.oidc;
      if (!client || !account) return undefined;
      const grantId = result?.consent?.grantId ?? session?.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      const grant =
        existing?.accountId === account.accountId
          ? existing
          : new ctx.oidc.provider.Grant({
              accountId: account.accountId,
              clientId: client.clientId,
            });
      grant.addOIDCScope(GRANTED_SCOPE);
      grant.addResourceScope(API_RESOURCE, GRANTED_SCOPE);
      await grant.save();
      return grant;
    },
    // Like Keycloak, the web client gets a refresh token bound to the sign-in session without
    // asking for offline_access (which oidc-provider only honours together with prompt=consent).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    extraTokenClaims: (_ctx, token) => {
      if (!('accountId' in token) || typeof token.accountId !== 'string') return undefined;
      const account = accounts.bySub(token.accountId);
      const { sub: _sub, ...claims } = account ? accountClaims(account) : { sub: '' };
      // Keycloak's `roles` client scope puts the user's realm roles here; only admins have one.
      const admin = account !== undefined && deps.admins.emails.has(account.email);
      return {
        typ: 'Bearer',
        azp: token.clientId,
        ...claims,
        ...(admin ? { realm_access: { roles: [deps.admins.role] } } : {}),
      };
    },
    ttl: {
      AccessToken: accessTokenTtlSeconds,
      IdToken: accessTokenTtlSeconds,
      AuthorizationCode: MINUTE,
      Interaction: HOUR,
      RefreshToken: DAY,
      Session: 14 * DAY,
      Grant: (_ctx, grant) => (grant.clientId === CLI_CLIENT_ID ? accessTokenTtlSeconds : 14 * DAY),
    },
    renderError: (ctx, out) => {
      const description =
        typeof out.error_description === 'string' ? out.error_description : undefined;
      sendPage(ctx, errorPage(String(out.error), description));
    },
  };

  const provider = new Provider(deps.issuer, configuration);
  provider.proxy = true;

  const { prototype } = provider.Client;
  prototype.redirectUriAllowed = function redirectUriAllowed(uri) {
    return underOrigin(uri, originsOf(this.clientId));
  };
  prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(uri) {
    return underOrigin(uri, originsOf(this.clientId));
  };

  registerPasswordGrant(provider, {
    devPassword: deps.devPassword,
    accounts,
    resourceServer,
    limits: deps.signInLimits,
  });

  // Pages oidc-provider renders itself (form_post, logout without a session) add the hash of
  // their inline script to an existing script-src; give them one to add to.
  const baselineCsp = `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; form-action 'self' ${webOrigins.join(' ')}; frame-ancestors 'none'; base-uri 'none'`;
  provider.use(async (ctx, next) => {
    ctx.set('content-security-policy', baselineCsp);
    await next();
    if (ctx.method === 'POST' && ctx.path === ROUTES.token) await sealRefreshToken(ctx.body);
    // oidc-provider answers discovery and the keys to any origin; only the web app's may read
    // them (preflights from other origins never get here: see refuseForeignPreflight).
    const origin = ctx.get('origin');
    if (origin && !webOrigins.includes(origin)) {
      for (const name of Object.keys(ctx.response.headers)) {
        if (name.toLowerCase().startsWith('access-control-')) ctx.remove(name);
      }
    }
  });

  const sealRefreshToken = async (body: unknown) => {
    if (typeof body !== 'object' || body === null || !('refresh_token' in body)) return;
    const value = body.refresh_token;
    if (typeof value !== 'string' || value.includes('.')) return;
    const refreshToken = await provider.RefreshToken.find(value);
    if (!refreshToken?.accountId || !refreshToken.clientId || !refreshToken.exp) return;
    Object.assign(body, {
      refresh_token: await deps.refreshTokens.seal(value, {
        sub: refreshToken.accountId,
        clientId: refreshToken.clientId,
        iat: refreshToken.iat,
        exp: refreshToken.exp,
      }),
      refresh_expires_in: Math.max(0, refreshToken.exp - Math.floor(Date.now() / 1000)),
    });
  };

  const refused =
    (event: string) => (_ctx: KoaContextWithOIDC, error: errors.OIDCProviderError) => {
      logger.warn(
        {
          event,
          error: error.error,
          description: error.error_description,
          detail: error.error_detail,
        },
        'identity request refused',
      );
    };
  provider.on('authorization.error', refused('authorization.error'));
  provider.on('grant.error', refused('grant.error'));
  provider.on('end_session.error', refused('end_session.error'));
  provider.on('userinfo.error', refused('userinfo.error'));
  provider.on('jwks.error', refused('jwks.error'));
  provider.on('discovery.error', refused('discovery.error'));
  provider.on('server_error', (_ctx, error) => {
    logger.error({ err: error }, 'identity provider failed');
  });

  return provider;
};
