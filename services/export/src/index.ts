export * from './config.js';
export { exportMigrations } from './migrations.js';
export type { ExportImage, ExportNote } from './model.js';
export { forgetNotionUser } from './notion/forget.js';
export { sandboxRenderers, type Renderers, type RenderOptions } from './renderers.js';
export { exportRouter } from './routes.js';
export { startExport, type RunningExport } from './service.js';
