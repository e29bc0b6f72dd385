import { Router } from 'express';
import { startService, grpcBinding, type ServiceDeps } from '@noted/service';
import { notesV1 } from '@noted/proto';
import { openObjectStore } from '@noted/storage';
import type { NotesConfig } from './config.js';
import { notesMigrations } from './migrations.js';
import { createQuota } from './quota.js';
import { notesGrpc } from './notes/grpc.js';
import { notesRouter, publicNotesRouter } from './notes/routes.js';
import { linksRouter } from './links/routes.js';
import { tagsRouter } from './tags/routes.js';
import { todosRouter } from './todos/routes.js';
import { noteImagesRouter, publicNoteImagesRouter } from './images/routes.js';
import { limitImageWork } from './images/process.js';
import type { ImagesContext } from './images/usecases.js';
import { reviewRouter } from './review/routes.js';
import { startReviewEnrolment } from './review/enrolment.js';
import { startReviewScheduler } from './review/scheduler.js';

/**
 * Every public route of the notes service. Fixed paths such as /api/notes/review come before
 * /api/notes/:id, which would otherwise take them.
 */
export const notesRoutes = (ctx: ImagesContext & { publicUrl: string }): Router =>
  Router().use(
    reviewRouter(ctx),
    linksRouter(ctx),
    notesRouter(ctx),
    tagsRouter(ctx),
    todosRouter(ctx),
    noteImagesRouter(ctx),
    publicNoteImagesRouter(ctx),
    publicNotesRouter(ctx),
  );

/** The notes service: notes REST for the gateway, NotesService over gRPC, note.* events. */
export const startNotes = async (config: NotesConfig, deps: ServiceDeps) => {
  limitImageWork(config.imageConcurrency);
  const objects = await openObjectStore({
    root: config.objectsRoot,
    ...(config.s3 ? { s3: config.s3 } : {}),
  });
  const quota = createQuota({
    address: config.usersGrpcAddress,
    internalSecret: config.internalSecret,
    logger: deps.logger.child({ module: 'notes' }),
  });
  return startService(
    {
      name: 'notes',
      migrations: notesMigrations,
      identityPaths: ['/api'],
      routes: ({ db, published, logger }) =>
        notesRoutes({
          knex: db.knex,
          published,
          quota,
          publicUrl: config.publicUrl,
          objects,
          logger,
        }),
      grpc: ({ db, published, logger }) =>
        grpcBinding(
          notesV1.NotesService,
          notesGrpc({ knex: db.knex, published, quota, objects, logger }),
        ),
      workers: ({ db, published, logger, bus }) => [
        startReviewEnrolment({ bus, knex: db.knex, logger }),
        startReviewScheduler({
          knex: db.knex,
          published,
          logger,
          intervalMs: config.reviewIntervalMs,
        }),
      ],
      onStop: async () => {
        quota.close();
        await objects.close();
      },
    },
    config,
    deps,
  );
};
