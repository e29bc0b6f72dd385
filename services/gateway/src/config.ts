import * as z from 'zod';
import type { RateLimitConfig } from './rate-limit.js';

const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

export const gatewayConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The origin browsers use to reach the gateway. */
  PUBLIC_URL: z.url().optional(),
  /** A real Keycloak; without it the embedded development provider answers under PUBLIC_URL. */
  KEYCLOAK_URL: z.url().optional(),
  KEYCLOAK_REALM: z.string().min(1).default('noted'),
  KEYCLOAK_CLIENT_ID: z.string().min(1).default('noted-web'),
  /** Access tokens must name this audience, or come from one of KEYCLOAK_ACCEPTED_CLIENTS (azp). */
  KEYCLOAK_AUDIENCE: z.string().min(1).default('noted-api'),
  KEYCLOAK_ACCEPTED_CLIENTS: list.default(['noted-web', 'noted-cli']),
  /**
   * The realm role (in the access token's `realm_access.roles`) of Noted's operators, who read
   * product feedback. The realm defines it and gives it to no one by default.
   */
  KEYCLOAK_ADMIN_ROLE: z.string().min(1).default('noted-admin'),
  /** Where the gateway fetches signing keys, when it differs from the issuer's public URL. */
  OIDC_JWKS_URL: z.url().optional(),
  USERS_URL: z.url().default('http://127.0.0.1:4101'),
  USERS_GRPC_ADDR: z.string().default('127.0.0.1:5101'),
  NOTES_URL: z.url().default('http://127.0.0.1:4102'),
  AI_URL: z.url().default('http://127.0.0.1:4103'),
  BILLING_URL: z.url().default('http://127.0.0.1:4104'),
  /** The realtime service: POST /ws/token, and the live connection's WebSocket upgrades. */
  REALTIME_URL: z.url().default('http://127.0.0.1:4105'),
  /** The export service: /export/* (Markdown, PDF, PNG, everything as a zip). */
  EXPORT_URL: z.url().default('http://127.0.0.1:4106'),
  /** Stripe's publishable key: when set, the pages may load Stripe.js (the CSP allows Stripe). */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .optional(),
  IDENTITY_URL: z.url().default('http://127.0.0.1:4100'),
  /** The object store as browsers reach it (the notes service's too): pages may upload there. */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  /** Where the notes micro-frontend's manifest is, as the browser sees it. */
  NOTES_REMOTE_URL: z.string().default('/remotes/notes/mf-manifest.json'),
  /** Where the billing micro-frontend's manifest is, as the browser sees it. */
  BILLING_REMOTE_URL: z.string().default('/remotes/billing/mf-manifest.json'),
  /** Where the marketing micro-frontend's manifest is, as the browser sees it. */
  MARKETING_REMOTE_URL: z.string().default('/remotes/marketing/mf-manifest.json'),
  /** The site's preview token: sent as `?preview=<token>`, it shows draft pages and posts. */
  CONTENT_PREVIEW_TOKEN: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .optional(),
  /** Identity providers brokered by the realm (Keycloak aliases, e.g. google,github): sign-in offers each. */
  KEYCLOAK_IDENTITY_PROVIDERS: list.default([]),
  /** Where the browser goes after signing out; default the app's root. */
  LOGOUT_URL: z.string().default('/'),
  /** Origins allowed to call the API from another site (comma list); none by default. */
  CORS_ORIGINS: list.default([]),
  /** Largest request body the gateway forwards. */
  GATEWAY_BODY_LIMIT_MB: z.coerce.number().positive().default(26),
  /** Largest file the gateway forwards to `POST /export/import` (the export service streams it). */
  GATEWAY_IMPORT_BODY_LIMIT_MB: z.coerce.number().positive().default(200),
  /** Requests one signed-in user may make per window (after the token is verified); 0 for none. */
  GATEWAY_RATE_LIMIT_PER_USER: z.coerce.number().int().min(0).default(600),
  /** Requests one client address (IPv6: one /56) may make per window, signed in or not; 0 for none. */
  GATEWAY_RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(3000),
  /** The fixed window both limits count in. */
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
});

export interface GatewayConfig {
  port: number;
  host: string;
  publicUrl: string;
  keycloak: {
    /** Base URL of Keycloak (or of the gateway, for the embedded provider). */
    url: string;
    realm: string;
    clientId: string;
    audience: string;
    acceptedClients: string[];
    /** The realm role that makes a user one of Noted's operators. */
    adminRole: string;
    issuer: string;
    jwksUrl: string;
    embedded: boolean;
  };
  upstreams: {
    users: string;
    notes: string;
    ai: string;
    billing: string;
    realtime: string;
    export: string;
    identity: string;
  };
  /** True when Stripe.js may load (a publishable key is configured). */
  stripeJs: boolean;
  /** The origin browsers upload large files to, when it is not the gateway's. */
  uploadOrigin?: string;
  usersGrpcAddress: string;
  notesRemoteUrl: string;
  billingRemoteUrl: string;
  marketingRemoteUrl: string;
  /** Shows drafts to whoever sends it; none: drafts are never served. */
  contentPreviewToken?: string;
  identityProviders: string[];
  logoutUrl: string;
  corsOrigins: string[];
  bodyLimitBytes: number;
  /** The body limit of the one route that takes larger files: an import. */
  importBodyLimitBytes: number;
  rateLimits: RateLimitConfig;
  internalSecret: string;
  /** Built frontends; the gateway serves them when present. */
  webRoot: { shell: string; notes: string; billing: string; marketing?: string };
}

export const gatewayConfigFrom = (
  env: z.infer<typeof gatewayConfigSchema>,
  shared: { host: string; internalSecret: string; webRoot: GatewayConfig['webRoot'] },
): GatewayConfig => {
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  const keycloakUrl = (env.KEYCLOAK_URL ?? publicUrl).replace(/\/$/, '');
  const embedded = env.KEYCLOAK_URL === undefined;
  const issuer = `${keycloakUrl}/realms/${env.KEYCLOAK_REALM}`;
  return {
    port: env.PORT,
    host: shared.host,
    publicUrl,
    keycloak: {
      url: keycloakUrl,
      realm: env.KEYCLOAK_REALM,
      clientId: env.KEYCLOAK_CLIENT_ID,
      audience: env.KEYCLOAK_AUDIENCE,
      acceptedClients: env.KEYCLOAK_ACCEPTED_CLIENTS,
      adminRole: env.KEYCLOAK_ADMIN_ROLE,
      issuer,
      jwksUrl:
        env.OIDC_JWKS_URL ??
        (embedded
          ? `${env.IDENTITY_URL}/realms/${env.KEYCLOAK_REALM}/protocol/openid-connect/certs`
          : `${issuer}/protocol/openid-connect/certs`),
      embedded,
    },
    upstreams: {
      users: env.USERS_URL,
      notes: env.NOTES_URL,
      ai: env.AI_URL,
      billing: env.BILLING_URL,
      realtime: env.REALTIME_URL,
      export: env.EXPORT_URL,
      identity: env.IDENTITY_URL,
    },
    stripeJs: env.STRIPE_PUBLISHABLE_KEY !== undefined,
    ...(env.S3_PUBLIC_ENDPOINT ? { uploadOrigin: new URL(env.S3_PUBLIC_ENDPOINT).origin } : {}),
    usersGrpcAddress: env.USERS_GRPC_ADDR,
    notesRemoteUrl: env.NOTES_REMOTE_URL,
    billingRemoteUrl: env.BILLING_REMOTE_URL,
    marketingRemoteUrl: env.MARKETING_REMOTE_URL,
    ...(env.CONTENT_PREVIEW_TOKEN ? { contentPreviewToken: env.CONTENT_PREVIEW_TOKEN } : {}),
    identityProviders: env.KEYCLOAK_IDENTITY_PROVIDERS,
    logoutUrl: env.LOGOUT_URL,
    corsOrigins: env.CORS_ORIGINS,
    bodyLimitBytes: Math.round(env.GATEWAY_BODY_LIMIT_MB * 1024 * 1024),
    importBodyLimitBytes: Math.round(env.GATEWAY_IMPORT_BODY_LIMIT_MB * 1024 * 1024),
    rateLimits: {
      perUser: env.GATEWAY_RATE_LIMIT_PER_USER,
      perIp: env.GATEWAY_RATE_LIMIT_PER_IP,
      windowSeconds: env.GATEWAY_RATE_LIMIT_WINDOW_SECONDS,
    },
    internalSecret: shared.internalSecret,
    webRoot: shared.webRoot,
  };
};
