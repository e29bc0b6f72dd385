export const WEB_CLIENT_ID = 'noted-web';
export const CLI_CLIENT_ID = 'noted-cli';
export const API_AUDIENCE = 'noted-api';
/** Resource indicator (RFC 8707) of the Noted API; tokens for it carry `aud: noted-api`. */
export const API_RESOURCE = 'urn:noted:api';
/** What the first-party clients are granted without a consent screen. */
export const GRANTED_SCOPE = 'openid profile email offline_access';

/** Keycloak's endpoint layout under the realm URL. */
export const ROUTES = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  jwks: '/protocol/openid-connect/certs',
  userinfo: '/protocol/openid-connect/userinfo',
  end_session: '/protocol/openid-connect/logout',
} as const;

/** Where the sign-in page lives under the realm path. */
export const LOGIN_ACTIONS = '/login-actions';
