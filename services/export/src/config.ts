import * as z from 'zod';

export const exportConfigSchema = z.object({
  EXPORT_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(4106),
  /** gRPC health only: the export service serves no RPCs. */
  EXPORT_GRPC_ADDR: z.string().default('127.0.0.1:5106'),
  /** The notes service's gRPC address, where notes and their images are read. */
  NOTES_GRPC_ADDR: z.string().default('127.0.0.1:5102'),
  /**
   * Notes read per ScanNotes call while exporting everything: the most notes (and their
   * bodies) held at once, twice over while the next page is read ahead.
   */
  EXPORT_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
});

export type ExportEnv = z.infer<typeof exportConfigSchema>;

export interface ExportConfig {
  httpPort: number;
  grpcAddress: string;
  notesGrpcAddress: string;
  host: string;
  internalSecret: string;
  /** The origin people reach Noted at: linked images and each note's `source` point there. */
  publicUrl: string;
  pageSize: number;
  grpcServer?: { maxConnectionAgeMs: number; maxConnectionAgeGraceMs: number };
}

export const exportConfigFrom = (
  env: ExportEnv,
  shared: Pick<ExportConfig, 'host' | 'internalSecret' | 'grpcServer' | 'publicUrl'>,
): ExportConfig => ({
  httpPort: env.EXPORT_HTTP_PORT,
  grpcAddress: env.EXPORT_GRPC_ADDR,
  notesGrpcAddress: env.NOTES_GRPC_ADDR,
  host: shared.host,
  internalSecret: shared.internalSecret,
  publicUrl: shared.publicUrl.replace(/\/$/, ''),
  pageSize: env.EXPORT_PAGE_SIZE,
  ...(shared.grpcServer ? { grpcServer: shared.grpcServer } : {}),
});
