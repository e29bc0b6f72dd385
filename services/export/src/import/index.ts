export { importNoteId, uuidV5, IMPORT_NAMESPACE, type ImportSource } from './ids.js';
export {
  parseMarkdown,
  splitFrontMatter,
  findReferences,
  type ImportedNote,
  type Reference,
} from './markdown.js';
export {
  bytesOf,
  readZip,
  sizeOf,
  takeImportFile,
  ZIP_LIMITS,
  type ImportFile,
  type ZipLimits,
  type ZipContent,
} from './zip.js';
export {
  planImport,
  planMarkdownImport,
  markExisting,
  markdownNotes,
  assertNotesLeft,
  bodyWithImages,
  PLAN_LIMITS,
  type ImportPlan,
  type PlannedNote,
  type PlannedImage,
  type PlanLimits,
  type Skipped,
  type SkipReason,
  type ExistingNotes,
} from './plan.js';
export {
  runImport,
  type ImportNotesPort,
  type ImportProgress,
  type ImportResult,
  type ImportFailure,
} from './run.js';
export { notionExportNotes, planNotionExportImport, expandNestedZips } from './notion-export.js';
export {
  createNotionClient,
  notionSync,
  planNotionSync,
  notionIdentity,
  notionError,
  type NotionSyncState,
  type NotionSyncResult,
  type NotionSyncOptions,
} from './notion-sync.js';
