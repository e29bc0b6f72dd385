import { Router } from 'express';
import { startService, grpcBinding, type ServiceDeps } from '@noted/service';
import { notesV1 } from '@noted/proto';
import type { NotesConfig } from './config.js';
import { notesMigrations } from './migrations.js';
import { createQuota } from './quota.js';
import { notesGrpc } from './notes/grpc.js';
import { notesRouter, publicNotesRouter } from './notes/routes.js';
import { linksRouter } from './links/routes.js';
import { tagsRouter } from './tags/routes.js';
import { todosRouter } from './todos/routes.js';

/** The notes service: notes REST for the gateway, NotesService over gRPC, note.* events. */
export const startNotes = async (config: NotesConfig, deps: ServiceDeps) => {
  const quota = createQuota({
    address: config.usersGrpcAddress,
    internalSecret: config.internalSecret,
    logger: deps.logger.child({ module: 'notes' }),
  });
  try {
    return await startService(
      {
        name: 'notes',
        migrations: notesMigrations,
        identityPaths: ['/api'],
        routes: ({ db, published }) => {
          const ctx = { knex: db.knex, published, quota, publicUrl: config.publicUrl };
          return Router().use(
            notesRouter(ctx),
            tagsRouter(ctx),
            linksRouter(ctx),
            todosRouter(ctx),
            publicNotesRouter(ctx),
          );
        },
        grpc: ({ db, published }) =>
          grpcBinding(notesV1.NotesService, notesGrpc({ knex: db.knex, published, quota })),
        onStop: () => quota.close(),
      },
      config,
      deps,
    );
  } catch (error) {
    quota.close();
    throw error;
  }
};
