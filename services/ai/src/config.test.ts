import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { aiConfigFrom, aiConfigSchema } from './config.js';
import { DEFAULT_E5_MODEL_DIR } from './local/e5/model-dir.js';
import { DEFAULT_USE_MODEL_DIR } from './local/use/model-dir.js';

const shared = { host: '127.0.0.1', dataDir: '/tmp', internalSecret: 'secret' };
const configOf = (env: Record<string, string>) => aiConfigFrom(aiConfigSchema.parse(env), shared);

describe('the local embeddings setting', () => {
  it('is the vendored sentence encoder on two threads (one on a single core) and e5 unless said', () => {
    expect(configOf({}).localEmbeddings).toEqual({
      kind: 'use',
      modelDir: DEFAULT_USE_MODEL_DIR,
      threads: Math.min(2, availableParallelism()),
      e5ModelDir: DEFAULT_E5_MODEL_DIR,
    });
    expect(configOf({ AI_LOCAL_EMBEDDINGS: 'use' }).localEmbeddings).not.toHaveProperty(
      'e5ModelDir',
    );
  });

  it('takes the hashed vectors, another model folder and more threads when asked', () => {
    expect(configOf({ AI_LOCAL_EMBEDDINGS: 'hashed' }).localEmbeddings).toEqual({ kind: 'hashed' });
    expect(
      configOf({ AI_LOCAL_MODEL_DIR: DEFAULT_USE_MODEL_DIR, AI_LOCAL_EMBEDDING_THREADS: '3' })
        .localEmbeddings,
    ).toMatchObject({ kind: 'use', threads: 3 });
  });

  it('stops the start naming AI_LOCAL_MODEL_DIR when the model files are not there', () => {
    expect(() => configOf({ AI_LOCAL_MODEL_DIR: '/nonexistent' })).toThrow(
      /^AI_LOCAL_MODEL_DIR: \/nonexistent lacks weights\.npz and sp\.model/,
    );
  });

  it('stops the start naming AI_LOCAL_E5_MODEL_DIR when e5 is not there', () => {
    expect(() => configOf({ AI_LOCAL_E5_MODEL_DIR: '/nonexistent' })).toThrow(
      /^AI_LOCAL_E5_MODEL_DIR: \/nonexistent lacks e5-small-q4\.bin/,
    );
  });

  it('needs no model files when an embedding model is configured', () => {
    const config = configOf({
      AI_LOCAL_MODEL_DIR: '/nonexistent',
      AI_LOCAL_E5_MODEL_DIR: '/nonexistent',
      OPENAI_BASE_URL: 'http://localhost:1234/v1',
      OPENAI_EMBEDDING_MODEL: 'text-embed',
    });
    expect(config.localEmbeddings).toMatchObject({ kind: 'use' });
  });

  it('refuses an unknown kind', () => {
    expect(() => aiConfigSchema.parse({ AI_LOCAL_EMBEDDINGS: 'bert' })).toThrow();
  });
});
