import { routes } from '@noted/api';
import { serveRoutes } from '@noted/kit';
import { startService, grpcBinding, type ServiceDeps } from '@noted/service';
import { usersV1 } from '@noted/proto';
import type { UsersConfig } from './config.js';
import { usersMigrations } from './migrations.js';
import { startUserDeletion } from './deletion/consumer.js';
import { identityAccountsFrom } from './deletion/identity-accounts.js';
import { feedbackHandlers } from './feedback/routes.js';
import type { FeedbackContext } from './feedback/usecases.js';
import { startPlanChanges } from './plans/consumer.js';
import { startNoteQuotaSettlement } from './quota/settlement.js';
import { usersGrpc } from './users/grpc.js';
import { userHandlers } from './users/routes.js';
import type { UsersContext } from './users/usecases.js';

/** Every public route of the users service, as its contracts in `@noted/api` declare them. */
export const usersRouter = (ctx: UsersContext & FeedbackContext) =>
  serveRoutes('users', { ...userHandlers(ctx), ...feedbackHandlers(ctx) });

/**
 * The users service: users and entitlements, `/user*` REST, UsersService over gRPC, the
 * entitlements of the plan billing announces, and product feedback (`/api/feedback`).
 */
export const startUsers = (config: UsersConfig, deps: ServiceDeps) => {
  const accounts = identityAccountsFrom(config.identityAccounts, config.internalSecret);
  if (!accounts) {
    deps.logger.warn(
      'users: KEYCLOAK_ADMIN_CLIENT_SECRET is not set, so a deleted account stays in Keycloak (its tokens are refused)',
    );
  }
  return startService(
    {
      name: 'users',
      migrations: usersMigrations,
      identityPaths: ['/user', '/user-by-sub', '/api'],
      // Feedback comes signed in or not; reading it needs an identity (and the operator role).
      optionalIdentityPaths: [routes.feedbackSend.path],
      routes: ({ db, unitOfWork }) => usersRouter({ knex: db.knex, unitOfWork, ...config }),
      grpc: ({ db, unitOfWork }) =>
        grpcBinding(usersV1.UsersService, usersGrpc({ knex: db.knex, unitOfWork, ...config })),
      workers: ({ db, bus, logger }) => [
        startPlanChanges({ bus, knex: db.knex, logger }),
        startNoteQuotaSettlement({ bus, knex: db.knex, logger }),
        ...startUserDeletion({ bus, knex: db.knex, logger, accounts }),
      ],
    },
    config,
    deps,
  );
};
