import * as z from 'zod';
import { DEFAULT_SANDBOX, type SandboxSettings } from '@noted/sandbox';

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
  /** The notes service's internal HTTP origin: imports write notes through its routes. */
  NOTES_URL: z.url().default('http://127.0.0.1:4102'),
  /**
   * The users service's internal HTTP origin: the month's usage, checked before an import, the
   * plan's export formats, and the account in the download of one's data.
   */
  USERS_URL: z.url().default('http://127.0.0.1:4101'),
  /** The ai and billing services' internal HTTP origins: chats, AI settings and the plan in the
   * download of one's data (`GET /user/data`). */
  AI_URL: z.url().default('http://127.0.0.1:4103'),
  BILLING_URL: z.url().default('http://127.0.0.1:4104'),
  /** The largest file `POST /export/import` takes, in bytes (streamed to a temporary file). */
  EXPORT_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(200 * 1024 * 1024),
  /**
   * How long reading one import may take (inflating, parsing): past it the import is refused
   * as IMPORT_TOO_COMPLEX and nothing is written.
   */
  EXPORT_IMPORT_READ_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Where the Notion connections are kept; DATABASE_URL, else PGlite in the data dir. */
  EXPORT_DATABASE_URL: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  /** The Notion API's origin (a local server speaking its wire format in tests). */
  NOTION_API_URL: z.url().default('https://api.notion.com'),
  /** How often each Notion connection is synced. */
  NOTION_SYNC_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
});

export type ExportEnv = z.infer<typeof exportConfigSchema>;

export interface NotionSettings {
  apiUrl: string;
  intervalMinutes: number;
}

export interface ExportConfig {
  httpPort: number;
  grpcAddress: string;
  notesGrpcAddress: string;
  host: string;
  internalSecret: string;
  /** The origin people reach Noted at: linked images and each note's `source` point there. */
  publicUrl: string;
  pageSize: number;
  notesUrl: string;
  usersUrl: string;
  aiUrl: string;
  billingUrl: string;
  importMaxBytes: number;
  importReadTimeoutMs: number;
  /** The memory of each process reading imports or rendering PDFs and PNGs. */
  sandbox: SandboxSettings;
  databaseUrl: string | undefined;
  /** PGlite's data lives in `<dataDir>/export` when there is no database URL. */
  dataDir: string;
  pgliteSharedBuffersMb?: number;
  notion: NotionSettings;
  grpcServer?: { maxConnectionAgeMs: number; maxConnectionAgeGraceMs: number };
}

export const exportConfigFrom = (
  env: ExportEnv,
  shared: Pick<
    ExportConfig,
    'host' | 'internalSecret' | 'grpcServer' | 'publicUrl' | 'dataDir' | 'pgliteSharedBuffersMb'
  > & { sandbox?: SandboxSettings },
): ExportConfig => ({
  httpPort: env.EXPORT_HTTP_PORT,
  grpcAddress: env.EXPORT_GRPC_ADDR,
  notesGrpcAddress: env.NOTES_GRPC_ADDR,
  host: shared.host,
  internalSecret: shared.internalSecret,
  publicUrl: shared.publicUrl.replace(/\/$/, ''),
  pageSize: env.EXPORT_PAGE_SIZE,
  notesUrl: env.NOTES_URL.replace(/\/$/, ''),
  usersUrl: env.USERS_URL.replace(/\/$/, ''),
  aiUrl: env.AI_URL.replace(/\/$/, ''),
  billingUrl: env.BILLING_URL.replace(/\/$/, ''),
  importMaxBytes: env.EXPORT_IMPORT_MAX_BYTES,
  importReadTimeoutMs: env.EXPORT_IMPORT_READ_SECONDS * 1000,
  sandbox: shared.sandbox ?? DEFAULT_SANDBOX,
  databaseUrl: env.EXPORT_DATABASE_URL ?? env.DATABASE_URL,
  dataDir: shared.dataDir,
  ...(shared.pgliteSharedBuffersMb ? { pgliteSharedBuffersMb: shared.pgliteSharedBuffersMb } : {}),
  notion: {
    apiUrl: env.NOTION_API_URL.replace(/\/$/, ''),
    intervalMinutes: env.NOTION_SYNC_INTERVAL_MINUTES,
  },
  ...(shared.grpcServer ? { grpcServer: shared.grpcServer } : {}),
});
