import { startService, grpcBinding, type ServiceDeps, type ServiceSettings } from '@noted/service';
import { notesV1 } from '@noted/proto';
import { notesMigrations } from './migrations.js';
import { notesGrpc } from './notes/grpc.js';
import { notesRouter } from './notes/routes.js';

/** The notes service: notes REST for the gateway, NotesService over gRPC, note.* events. */
export const startNotes = (settings: ServiceSettings, deps: ServiceDeps) =>
  startService(
    {
      name: 'notes',
      migrations: notesMigrations,
      identityPaths: ['/api'],
      routes: ({ db, published }) => notesRouter({ knex: db.knex, published }),
      grpc: ({ db, published }) =>
        grpcBinding(notesV1.NotesService, notesGrpc({ knex: db.knex, published })),
    },
    settings,
    deps,
  );
