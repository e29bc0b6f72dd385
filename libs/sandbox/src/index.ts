export {
  createSandbox,
  DEFAULT_SANDBOX,
  residentBytes,
  SandboxError,
  taskModule,
  type Sandbox,
  type SandboxFailure,
  type SandboxOptions,
  type SandboxSettings,
  type SandboxTask,
} from './sandbox.js';
export type { TaskTools } from './protocol.js';
