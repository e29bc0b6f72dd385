import * as z from 'zod';
import type { ServiceSettings } from '@noted/service';

export const notesConfigSchema = z.object({
  NOTES_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4102),
  NOTES_GRPC_ADDR: z.string().default('127.0.0.1:5102'),
  NOTES_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** The users service's gRPC address, where note quotas are consumed. */
  USERS_GRPC_ADDR: z.string().default('127.0.0.1:5101'),
  /** The public origin (the gateway's), for links to shared notes. */
  PUBLIC_URL: z.url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
});

export interface NotesConfig extends ServiceSettings {
  publicUrl: string;
  usersGrpcAddress: string;
}

export const notesConfigFrom = (
  env: z.infer<typeof notesConfigSchema>,
  shared: Pick<ServiceSettings, 'host' | 'dataDir' | 'internalSecret'>,
): NotesConfig => ({
  httpPort: env.NOTES_HTTP_PORT,
  grpcAddress: env.NOTES_GRPC_ADDR,
  databaseUrl: env.NOTES_DATABASE_URL ?? env.DATABASE_URL,
  usersGrpcAddress: env.USERS_GRPC_ADDR,
  publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  ...shared,
});
