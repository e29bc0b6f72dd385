import * as z from 'zod';
import type { ServiceSettings } from '@noted/service';

export const notesConfigSchema = z.object({
  NOTES_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4102),
  NOTES_GRPC_ADDR: z.string().default('127.0.0.1:5102'),
  NOTES_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
});

export type NotesConfig = ServiceSettings;

export const notesConfigFrom = (
  env: z.infer<typeof notesConfigSchema>,
  shared: Pick<ServiceSettings, 'host' | 'dataDir' | 'internalSecret'>,
): NotesConfig => ({
  httpPort: env.NOTES_HTTP_PORT,
  grpcAddress: env.NOTES_GRPC_ADDR,
  databaseUrl: env.NOTES_DATABASE_URL ?? env.DATABASE_URL,
  ...shared,
});
