import type { Logger, RunningModule } from '@noted/kit';
import { openEventBus, type EventBus } from '@noted/events';
import type { GatewayConfig } from '@noted/gateway';
import type { ModuleMap } from './manager.js';
import type { ProgramEnv } from './config.js';

export interface ProgramContext {
  env: ProgramEnv;
  logger: Logger;
  shared: { host: string; dataDir: string; internalSecret: string; pgliteSharedBuffersMb: number };
  gateway: GatewayConfig;
  /** Set by the bus module; every module that publishes or consumes depends on it. */
  bus?: EventBus;
  /** True once every module of this process has started and is ready. */
  processReady: () => boolean;
  /** Where modules started in this process listen, for the modules started after them. */
  endpoints: {
    identity?: string;
    users?: { http: string; grpc: string };
    notes?: { http: string; grpc: string };
    ai?: { http: string; grpc: string };
  };
}

/** The gateway's upstreams, pointed at the modules of this process where they run here. */
const gatewayWithEndpoints = (context: ProgramContext): GatewayConfig => {
  const { gateway, endpoints } = context;
  const identity = endpoints.identity ?? gateway.upstreams.identity;
  return {
    ...gateway,
    upstreams: {
      identity,
      users: endpoints.users?.http ?? gateway.upstreams.users,
      notes: endpoints.notes?.http ?? gateway.upstreams.notes,
      ai: endpoints.ai?.http ?? gateway.upstreams.ai,
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

export const moduleNames = ['bus', 'identity', 'users', 'notes', 'ai', 'gateway'] as const;
export type ModuleName = (typeof moduleNames)[number];

/** What `--target=all` runs. */
export const allTarget: readonly ModuleName[] = ['identity', 'users', 'notes', 'ai', 'gateway'];

const busOf = (context: ProgramContext): EventBus => {
  if (!context.bus) throw new Error('the bus module has not started');
  return context.bus;
};

const idle: RunningModule = { ready: () => true, stop: async () => {} };

/** Each module loads its service only when started, so a process holds only its targets. */
export const modules: ModuleMap<ModuleName, ProgramContext> = {
  bus: {
    deps: [],
    start: async (context) => {
      const bus = await openEventBus({
        natsUrl: context.env.NATS_URL,
        service: 'noted',
        logger: context.logger,
      });
      context.bus = bus;
      return { ready: () => bus.healthy(), stop: () => bus.close() };
    },
  },
  identity: {
    deps: [],
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
        logger: context.logger,
      });
      context.endpoints.identity = identity.url;
      context.logger.info(
        { issuer: context.gateway.keycloak.issuer },
        `development sign-in: any email; password grant for noted-cli with password "${context.env.NOTED_DEV_PASSWORD}"`,
      );
      return identity;
    },
  },
  users: {
    deps: ['bus'],
    start: async (context) => {
      const { startUsers, usersConfigFrom } = await import('@noted/users');
      const users = await startUsers(usersConfigFrom(context.env, context.shared), {
        bus: busOf(context),
        logger: context.logger,
        processReady: context.processReady,
      });
      context.endpoints.users = { http: users.httpUrl, grpc: users.grpcAddress };
      return users;
    },
  },
  notes: {
    deps: ['bus'],
    start: async (context) => {
      const { startNotes, notesConfigFrom } = await import('@noted/notes');
      const config = notesConfigFrom(context.env, context.shared);
      const usersGrpcAddress = context.endpoints.users?.grpc ?? config.usersGrpcAddress;
      const notes = await startNotes(
        { ...config, usersGrpcAddress },
        {
          bus: busOf(context),
          logger: context.logger,
          processReady: context.processReady,
        },
      );
      context.endpoints.notes = { http: notes.httpUrl, grpc: notes.grpcAddress };
      return notes;
    },
  },
  ai: {
    deps: ['bus'],
    start: async (context) => {
      const { startAi, aiConfigFrom } = await import('@noted/ai');
      const config = aiConfigFrom(context.env, context.shared);
      const notesGrpcAddress = context.endpoints.notes?.grpc ?? config.notesGrpcAddress;
      const ai = await startAi(
        { ...config, notesGrpcAddress },
        { bus: busOf(context), logger: context.logger, processReady: context.processReady },
      );
      context.endpoints.ai = { http: ai.httpUrl, grpc: ai.grpcAddress };
      return ai;
    },
  },
  gateway: {
    deps: ['identity'],
    start: async (context) => {
      const { startGateway } = await import('@noted/gateway');
      return startGateway(gatewayWithEndpoints(context), {
        logger: context.logger,
        processReady: context.processReady,
      });
    },
  },
};
