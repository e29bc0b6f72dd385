/**
 * The child process a sandbox (`sandbox.ts`) runs its tasks in: it imports the task's module,
 * calls the named export with the input and answers over IPC, one task at a time. The parent
 * watches this process's memory and time and kills it past either; this side only does the
 * work. It imports nothing from the workspace, so it starts the same from source and from dist,
 * and it ends when the parent disconnects or goes away.
 */
import type { HostReply, HostRequest, TaskTools } from './protocol.js';

if (!process.send) throw new Error('sandbox host runs as a child process of a sandbox');
const sendToParent = process.send.bind(process);
const send = (reply: HostReply) => {
  if (process.connected) sendToParent(reply, undefined, undefined, () => undefined);
};

const modules = new Map<string, Promise<Record<string, unknown>>>();

const errorOf = (error: unknown): Extract<HostReply, { ok: false }>['error'] => {
  if (error instanceof Error) {
    const { code, details } = error as Error & { code?: unknown; details?: unknown };
    return {
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(details === undefined ? {} : { details }),
    };
  }
  return { message: String(error) };
};

process.on('message', (request: HostRequest) => {
  void (async () => {
    try {
      let loading = modules.get(request.module);
      if (!loading) {
        loading = import(request.module) as Promise<Record<string, unknown>>;
        modules.set(request.module, loading);
      }
      const task = (await loading)[request.fn];
      if (typeof task !== 'function')
        throw new Error(`${request.module} has no export ${request.fn}`);
      send({ id: request.id, started: true });
      // A progress report is written to the channel at once (a pipe write is attempted
      // synchronously), so the parent hears it even while the task then blocks for long.
      const progress = (value: unknown) => send({ id: request.id, progress: value });
      const result: unknown = await (task as (input: unknown, tools: TaskTools) => unknown)(
        request.input,
        { progress },
      );
      send({ id: request.id, ok: true, result });
    } catch (error) {
      send({ id: request.id, ok: false, error: errorOf(error) });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
