import { startService, grpcBinding, type ServiceDeps } from '@noted/service';
import { serveRoutes, startPeriodic } from '@noted/kit';
import { notesV1 } from '@noted/proto';
import { openObjectStore } from '@noted/storage';
import type { NotesConfig } from './config.js';
import { notesMigrations } from './migrations.js';
import { createQuota } from './quota.js';
import { notesGrpc } from './notes/grpc.js';
import { noteHandlers } from './notes/routes.js';
import { linkHandlers } from './links/routes.js';
import { tagHandlers } from './tags/routes.js';
import { todoHandlers } from './todos/routes.js';
import { imageHandlers } from './images/routes.js';
import { captureHandlers } from './capture/routes.js';
import { uploadsSweep } from './capture/uploads.js';
import { closeImageWork, configureImageWork } from './images/process.js';
import type { CaptureContext, ReviewContext } from './context.js';
import { reviewHandlers } from './review/routes.js';
import { startReviewEnrolment } from './review/enrolment.js';
import { startReviewScheduler } from './review/scheduler.js';
import { startUserDeletion } from './deletion/erase.js';
import { quotaSweep } from './quota-sweep.js';

/** Every public route of the notes service, as its contracts in `@noted/api` declare them. */
export const notesRouter = (ctx: CaptureContext & ReviewContext & { publicUrl: string }) =>
  serveRoutes('notes', {
    ...noteHandlers(ctx),
    ...tagHandlers(ctx),
    ...linkHandlers(ctx),
    ...todoHandlers(ctx),
    ...reviewHandlers(ctx),
    ...imageHandlers(ctx),
    ...captureHandlers(ctx),
  });

/** The notes service: notes REST for the gateway, NotesService over gRPC, note.* events. */
export const startNotes = async (config: NotesConfig, deps: ServiceDeps) => {
  configureImageWork({ processes: config.imageConcurrency, memoryMb: config.sandbox.memoryMb });
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
      // An upload address is its own permission (a random token), for a browser form.
      openPaths: ['/api/uploads/'],
      routes: ({ db, unitOfWork, logger }) =>
        notesRouter({
          knex: db.knex,
          unitOfWork,
          quota,
          publicUrl: config.publicUrl,
          reviewFirstDueSeconds: config.reviewFirstDueSeconds,
          fetchAllowAddresses: config.fetchAllowAddresses,
          objects,
          logger,
        }),
      grpc: ({ db, unitOfWork, logger }) =>
        grpcBinding(
          notesV1.NotesService,
          notesGrpc({ knex: db.knex, unitOfWork, quota, objects, logger }),
        ),
      workers: ({ db, unitOfWork, logger, bus }) => [
        startPeriodic({
          name: 'sweeping expired uploads',
          intervalMs: 10 * 60_000,
          firstDelayMs: 30_000,
          logger,
          run: async (isStopped) => {
            const ctx = { knex: db.knex, unitOfWork, quota, objects, logger };
            const deleted = await uploadsSweep(ctx, { isStopped });
            if (deleted > 0) logger.info({ deleted }, 'expired uploads deleted');
          },
        }),
        startPeriodic({
          name: 'sweeping note quota charges never settled',
          intervalMs: config.quotaSweepIntervalMs,
          firstDelayMs: config.quotaSweepIntervalMs,
          logger,
          run: async (isStopped) => {
            const swept = await quotaSweep(
              { knex: db.knex, quota },
              { olderThanSeconds: config.quotaSweepAfterSeconds, isStopped },
            );
            if (swept.settled + swept.released > 0) {
              logger.warn(swept, 'note quota charges left pending were settled or given back');
            }
          },
        }),
        startReviewEnrolment({
          bus,
          knex: db.knex,
          logger,
          firstDueSeconds: config.reviewFirstDueSeconds,
        }),
        startReviewScheduler({
          unitOfWork,
          logger,
          intervalMs: config.reviewIntervalMs,
        }),
        startUserDeletion({ bus, knex: db.knex, objects, logger }),
      ],
      onStop: async () => {
        quota.close();
        await closeImageWork();
        await objects.close();
      },
    },
    config,
    deps,
  );
};
