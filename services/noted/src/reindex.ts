import path from 'node:path';
import { callerMetadata } from '@noted/kit';
import { createGrpcClient } from '@noted/grpc';
import { aiV1 } from '@noted/proto';
import { internalSecretOf, loadProgramEnv } from './config.js';
import { readEndpoints } from './endpoints.js';

/**
 * `noted reindex`: asks the ai service to rebuild its index from the notes service (every
 * user's notes, or one user's) and prints its progress until it ends. The ai service is found
 * at AI_GRPC_ADDR when set, else where a Noted running on NOTED_DATA_DIR recorded it.
 */
export const runReindex = async (options: {
  env: Record<string, string | undefined>;
  userId?: string;
  out: (line: string) => void;
  pollMs?: number;
}): Promise<aiV1.ReindexProgress> => {
  const env = loadProgramEnv(options.env, { oneProcess: false });
  const dataDir = path.resolve(env.NOTED_DATA_DIR);
  const address = options.env.AI_GRPC_ADDR ?? readEndpoints(dataDir).ai?.grpc ?? env.AI_GRPC_ADDR;
  const client = createGrpcClient(aiV1.AiService, address, {
    service: 'noted-cli',
    deadlineMs: 10_000,
    metadata: callerMetadata(internalSecretOf(env, dataDir), 'noted-cli'),
  });
  try {
    const started = await client.startReindex({ userId: options.userId ?? '' });
    const id = started.progress?.id;
    options.out(`reindex ${id} started at ${address}`);
    for (;;) {
      const { progress } = await client.getReindexProgress({});
      if (!progress || progress.id !== id) throw new Error('the reindex was lost (ai restarted?)');
      const percent = progress.total ? Math.floor((progress.done / progress.total) * 100) : 0;
      options.out(`${progress.state}: ${progress.done}/${progress.total} notes (${percent}%)`);
      if (progress.state === 'failed') throw new Error(`reindex failed: ${progress.error}`);
      if (progress.state === 'finished') return progress;
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
    }
  } finally {
    client.close();
  }
};
