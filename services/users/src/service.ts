import { startService, grpcBinding, type ServiceDeps } from '@noted/service';
import { usersV1 } from '@noted/proto';
import type { UsersConfig } from './config.js';
import { usersMigrations } from './migrations.js';
import { usersGrpc } from './users/grpc.js';
import { usersRouter } from './users/routes.js';

/** The users service: users and entitlements, `/user*` REST, UsersService over gRPC. */
export const startUsers = (config: UsersConfig, deps: ServiceDeps) =>
  startService(
    {
      name: 'users',
      migrations: usersMigrations,
      identityPaths: ['/user', '/user-by-sub'],
      routes: ({ db }) => usersRouter({ knex: db.knex, ...config }),
      grpc: ({ db }) => grpcBinding(usersV1.UsersService, usersGrpc({ knex: db.knex, ...config })),
    },
    config,
    deps,
  );
