import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import { accountClaims, isPlausibleEmail, type AccountStore } from './accounts.js';
import { API_RESOURCE } from './constants.js';
import { refusalMessage, type SignInLimits, type SignInRefusal } from './sign-in-limits.js';

const PASSWORD_SCOPES = new Set(['openid', 'profile', 'email']);
const DEFAULT_SCOPE = 'openid profile email';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares without leaking, through timing, how much of the password was right. */
export const passwordMatches = (given: string, expected: string): boolean =>
  timingSafeEqual(digest(given), digest(expected));

interface PasswordGrantDeps {
  devPassword: string;
  accounts: AccountStore;
  resourceServer: ResourceServer;
  limits: SignInLimits;
}

/** 429 with the OAuth error `temporarily_unavailable`: the client may try again later. */
class TooManyFailedSignIns extends errors.CustomOIDCProviderError {
  constructor(refusal: SignInRefusal) {
    super('temporarily_unavailable', refusalMessage(refusal));
    this.status = 429;
    this.statusCode = 429;
  }
}

/**
 * The client's address as the express app in front resolved it (trusting only proxies on
 * private addresses, such as the gateway), not Koa's, which would believe any X-Forwarded-For.
 */
const clientIp = (ctx: KoaContextWithOIDC): string | undefined =>
  (ctx.req as { ip?: string }).ip ?? ctx.req.socket.remoteAddress;

/**
 * Keycloak's direct access grant (`grant_type=password`) for scripts, tests and benchmarks:
 * any plausible email with the development password. It answers with the same JWT access
 * token as the browser flow, because it issues the same oidc-provider AccessToken.
 */
export const registerPasswordGrant = (provider: Provider, deps: PasswordGrantDeps): void => {
  provider.registerGrantType<{ username?: unknown; password?: unknown }>(
    'password',
    async (ctx) => {
      const { client, params } = ctx.oidc;
      const username = typeof params.username === 'string' ? params.username.trim() : '';
      const password = typeof params.password === 'string' ? params.password : '';
      const ip = clientIp(ctx);
      // A locked account or address is refused before the password is looked at, so guessing
      // on after the lock learns nothing.
      const refusal = deps.limits.refusal(username, ip);
      if (refusal) {
        ctx.set('retry-after', String(refusal.retryAfterSeconds));
        throw new TooManyFailedSignIns(refusal);
      }
      if (
        !passwordMatches(password, deps.devPassword) ||
        !isPlausibleEmail(username.toLowerCase())
      ) {
        deps.limits.failed(username, ip);
        throw new errors.InvalidGrant('invalid user credentials');
      }
      deps.limits.succeeded(username);

      const requested = (params.scope ?? DEFAULT_SCOPE).split(' ').filter(Boolean);
      const refused = requested.find((scope) => !PASSWORD_SCOPES.has(scope));
      if (refused) throw new errors.InvalidScope('requested scope is not allowed', refused);
      const scope = requested.join(' ');

      const account = await deps.accounts.signIn(username);
      const grant = new provider.Grant({ accountId: account.sub, clientId: client.clientId });
      grant.addOIDCScope(scope);
      grant.addResourceScope(API_RESOURCE, scope);
      const grantId = await grant.save();

      const accessToken = new provider.AccessToken({
        accountId: account.sub,
        client,
        grantId,
        gty: 'password',
        scope,
      });
      accessToken.resourceServer = new provider.ResourceServer(API_RESOURCE, deps.resourceServer);
      ctx.oidc.entity('AccessToken', accessToken);
      const value = await accessToken.save();

      let idToken: string | undefined;
      if (requested.includes('openid')) {
        const token = new provider.IdToken({ ...accountClaims(account) }, { ctx });
        Object.assign(token, { scope });
        idToken = await token.issue({ use: 'idtoken' });
      }

      ctx.body = {
        access_token: value,
        expires_in: accessToken.expiration,
        token_type: 'Bearer',
        ...(idToken ? { id_token: idToken } : {}),
        scope,
      };
    },
    ['username', 'password', 'scope'],
  );
};
