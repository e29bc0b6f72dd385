import type { Logger, RunningModule } from '@noted/kit';
import { openEventBus, type EventBus } from '@noted/events';
import type { GatewayConfig } from '@noted/gateway';
import type { SandboxSettings } from '@noted/sandbox';
import type { ModuleDefinition, ModuleMap } from './manager.js';
import type { ProgramEnv } from './config.js';

export interface ProgramContext {
  env: ProgramEnv;
  logger: Logger;
  shared: {
    host: string;
    dataDir: string;
    internalSecret: string;
    pgliteSharedBuffersMb: number;
    sandbox: SandboxSettings;
    grpcServer: { maxConnectionAgeMs: number; maxConnectionAgeGraceMs: number };
  };
  gateway: GatewayConfig;
  /** True once every module of this process has started and is ready. */
  processReady: () => boolean;
}

/** Where a service module listens. */
export interface Endpoint {
  http: string;
  grpc: string;
}

/** What each module started in this process provides to the modules that name it. */
export interface Provides {
  bus: EventBus;
  /** The development identity provider's URL; nothing when Keycloak is used. */
  identity: string | undefined;
  users: Endpoint;
  notes: Endpoint;
  ai: Endpoint;
  billing: Endpoint;
  realtime: Endpoint;
  export: Endpoint;
  gateway: undefined;
}

/** Where the modules started in this process listen (recorded for `noted reindex`). */
export type Endpoints = Partial<
  Pick<Provides, 'identity' | 'users' | 'notes' | 'ai' | 'billing' | 'realtime' | 'export'>
>;

/** The gateway's upstreams, pointed at the modules of this process where they run here. */
const gatewayWithEndpoints = (gateway: GatewayConfig, endpoints: Endpoints): GatewayConfig => {
  const identity = endpoints.identity ?? gateway.upstreams.identity;
  return {
    ...gateway,
    upstreams: {
      identity,
      users: endpoints.users?.http ?? gateway.upstreams.users,
      notes: endpoints.notes?.http ?? gateway.upstreams.notes,
      ai: endpoints.ai?.http ?? gateway.upstreams.ai,
      billing: endpoints.billing?.http ?? gateway.upstreams.billing,
      realtime: endpoints.realtime?.http ?? gateway.upstreams.realtime,
      export: endpoints.export?.http ?? gateway.upstreams.export,
    },
    usersGrpcAddress: endpoints.users?.grpc ?? gateway.usersGrpcAddress,
    keycloak: {
      ...gateway.keycloak,
      jwksUrl:
        gateway.keycloak.embedded && endpoints.identity
          ? `${identity}/realms/${gateway.keycloak.realm}/protocol/openid-connect/certs`
          : gateway.keycloak.jwksUrl,
    },
  };
};

export const moduleNames = [
  'bus',
  'identity',
  'users',
  'notes',
  'ai',
  'billing',
  'realtime',
  'export',
  'gateway',
] as const;
export type ModuleName = (typeof moduleNames)[number];

/** What `--target=all` runs. */
export const allTarget: readonly ModuleName[] = [
  'identity',
  'users',
  'notes',
  'ai',
  'billing',
  'realtime',
  'export',
  'gateway',
];

/**
 * A module of the map, typed by what it names: `start` is given what its deps provide and,
 * where they run in this process, what the modules it reads provide.
 */
const defineModule = <
  Self extends ModuleName,
  const Deps extends readonly ModuleName[],
  const Reads extends readonly ModuleName[],
>(
  _self: Self,
  definition: {
    deps: Deps;
    reads: Reads;
    start: (
      context: ProgramContext,
      given: { [N in Deps[number]]: Provides[N] } & { [N in Reads[number]]?: Provides[N] },
    ) => Promise<RunningModule & { provides?: Provides[Self] }>;
  },
) => definition as unknown as ModuleDefinition<ModuleName, ProgramContext>;

const idle: RunningModule = { ready: () => true, stop: async () => {} };

const providing = <P>(module: RunningModule, provides: P) => ({
  ready: () => module.ready(),
  stop: () => module.stop(),
  provides,
});

/**
 * Each module loads its service only when started, so a process holds only its targets. `deps`
 * must run in the same process; `reads` are the modules whose endpoints a module calls.
 */
export const modules: ModuleMap<ModuleName, ProgramContext> = {
  bus: defineModule('bus', {
    deps: [],
    reads: [],
    start: async (context) => {
      const bus = await openEventBus({
        natsUrl: context.env.NATS_URL,
        service: 'noted',
        logger: context.logger,
      });
      return providing({ ready: () => bus.healthy(), stop: () => bus.close() }, bus);
    },
  }),
  identity: defineModule('identity', {
    deps: [],
    // Nothing: the users service deletes a deleted account here, over HTTP, in every topology.
    reads: [],
    start: async (context) => {
      if (!context.gateway.keycloak.embedded) {
        context.logger.info({ issuer: context.gateway.keycloak.issuer }, 'using Keycloak');
        return idle;
      }
      const { startIdentity } = await import('@noted/identity');
      const identity = await startIdentity({
        issuer: context.gateway.keycloak.issuer,
        port: context.env.IDENTITY_PORT,
        host: context.shared.host,
        dataDir: context.shared.dataDir,
        devPassword: context.env.NOTED_DEV_PASSWORD,
        webRedirectOrigins: [context.gateway.publicUrl],
        signInLimits: {
          failuresPerAccount: context.env.IDENTITY_SIGN_IN_FAILURES_PER_ACCOUNT,
          failuresPerIp: context.env.IDENTITY_SIGN_IN_FAILURES_PER_IP,
          windowSeconds: context.env.IDENTITY_SIGN_IN_WINDOW_SECONDS,
        },
        adminEmails: context.env.IDENTITY_ADMIN_EMAILS,
        adminRole: context.gateway.keycloak.adminRole,
        internalSecret: context.shared.internalSecret,
        logger: context.logger,
      });
      context.logger.info(
        { issuer: context.gateway.keycloak.issuer },
        `development sign-in: any email; password grant for noted-cli with password "${context.env.NOTED_DEV_PASSWORD}"`,
      );
      return providing(identity, identity.url);
    },
  }),
  users: defineModule('users', {
    deps: ['bus'],
    // The development identity provider, where a deleted account's account is deleted.
    reads: ['identity'],
    start: async (context, { bus, identity }) => {
      const { startUsers, usersConfigFrom } = await import('@noted/users');
      const config = usersConfigFrom(context.env, context.shared);
      const accounts = config.identityAccounts;
      const users = await startUsers(
        {
          ...config,
          identityAccounts:
            identity && accounts.provider === 'development'
              ? { ...accounts, url: identity }
              : accounts,
        },
        {
          bus,
          logger: context.logger,
          processReady: context.processReady,
        },
      );
      return providing(users, { http: users.httpUrl, grpc: users.grpcAddress });
    },
  }),
  notes: defineModule('notes', {
    deps: ['bus'],
    // The monthly note quota, over gRPC.
    reads: ['users'],
    start: async (context, { bus, users }) => {
      const { startNotes, notesConfigFrom } = await import('@noted/notes');
      const config = notesConfigFrom(context.env, context.shared);
      const notes = await startNotes(
        { ...config, usersGrpcAddress: users?.grpc ?? config.usersGrpcAddress },
        { bus, logger: context.logger, processReady: context.processReady },
      );
      return providing(notes, { http: notes.httpUrl, grpc: notes.grpcAddress });
    },
  }),
  ai: defineModule('ai', {
    deps: ['bus'],
    // The notes' content, over gRPC.
    reads: ['notes'],
    start: async (context, { bus, notes }) => {
      const { startAi, aiConfigFrom } = await import('@noted/ai');
      const config = aiConfigFrom(context.env, context.shared);
      const ai = await startAi(
        { ...config, notesGrpcAddress: notes?.grpc ?? config.notesGrpcAddress },
        { bus, logger: context.logger, processReady: context.processReady },
      );
      return providing(ai, { http: ai.httpUrl, grpc: ai.grpcAddress });
    },
  }),
  billing: defineModule('billing', {
    deps: ['bus'],
    // Stripe, and the users service through events only.
    reads: [],
    start: async (context, { bus }) => {
      const { startBilling, billingConfigFrom } = await import('@noted/billing');
      const billing = await startBilling(
        billingConfigFrom(context.env, { ...context.shared, publicUrl: context.gateway.publicUrl }),
        { bus, logger: context.logger, processReady: context.processReady },
      );
      return providing(billing, { http: billing.httpUrl, grpc: billing.grpcAddress });
    },
  }),
  realtime: defineModule('realtime', {
    deps: ['bus'],
    // Nothing: it listens to the events of notes and pushes them to the users connected here.
    reads: [],
    start: async (context, { bus }) => {
      const { startRealtime, realtimeConfigFrom } = await import('@noted/realtime');
      const realtime = await startRealtime(
        realtimeConfigFrom(context.env, {
          ...context.shared,
          publicUrl: context.gateway.publicUrl,
          corsOrigins: context.gateway.corsOrigins,
        }),
        { bus, logger: context.logger, processReady: context.processReady },
      );
      return providing(realtime, { http: realtime.httpUrl, grpc: realtime.grpcAddress });
    },
  }),
  export: defineModule('export', {
    // The bus: a deleted account's Notion connection goes (user.deleted), in every topology.
    deps: ['bus'],
    // Notes and their images over gRPC; the other services' routes as the user: imports write
    // notes and read the month's usage, a PDF checks the plan, one's data reads them all.
    reads: ['notes', 'users', 'ai', 'billing'],
    start: async (context, { bus, notes, users, ai, billing }) => {
      const { startExport, exportConfigFrom } = await import('@noted/export');
      const config = exportConfigFrom(context.env, {
        ...context.shared,
        publicUrl: context.gateway.publicUrl,
      });
      const running = await startExport(
        {
          ...config,
          notesGrpcAddress: notes?.grpc ?? config.notesGrpcAddress,
          notesUrl: notes?.http ?? config.notesUrl,
          usersUrl: users?.http ?? config.usersUrl,
          aiUrl: ai?.http ?? config.aiUrl,
          billingUrl: billing?.http ?? config.billingUrl,
        },
        { logger: context.logger, processReady: context.processReady, bus },
      );
      return providing(running, { http: running.httpUrl, grpc: running.grpcAddress });
    },
  }),
  gateway: defineModule('gateway', {
    deps: ['identity'],
    // The upstreams it forwards to, and users over gRPC to resolve who is calling.
    reads: ['users', 'notes', 'ai', 'billing', 'realtime', 'export'],
    start: async (context, endpoints) => {
      const { startGateway } = await import('@noted/gateway');
      return startGateway(gatewayWithEndpoints(context.gateway, endpoints), {
        logger: context.logger,
        processReady: context.processReady,
      });
    },
  }),
};
