/** What a sandbox and its child process (`host.ts`) say to each other over IPC. */
export interface HostRequest {
  id: number;
  /** The task's module, as a file URL. */
  module: string;
  /** Its export to call with `input`. */
  fn: string;
  input: unknown;
}

export type HostReply =
  /** The task's module is loaded and the task begins: its time counts from here. */
  | { id: number; started: true }
  /** What the task says of its progress (`progress` of its second argument). */
  | { id: number; progress: unknown }
  | { id: number; ok: true; result: unknown }
  | {
      id: number;
      ok: false;
      /** What the task threw: its message, and the stable code and details of an AppError. */
      error: { message: string; code?: string; details?: unknown };
    };

/** What a task is called with beside its input. */
export interface TaskTools {
  /** Tells the caller how the task is getting on (`SandboxTask.onProgress`). */
  progress(value: unknown): void;
}
