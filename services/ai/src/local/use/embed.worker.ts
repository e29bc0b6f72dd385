/**
 * The sentence encoder that `embedder.ts` runs in a piscina worker thread: a batch takes tens
 * to hundreds of milliseconds of arithmetic, which must not stall the service's event loop.
 * The model is read on the thread's first task and lives as long as the thread: an idle
 * thread ends, and its memory goes with it. Imports nothing from the workspace, so the thread
 * starts the same from source and from dist.
 */
import { loadSentenceEncoder, type SentenceEncoder } from './encoder.js';

export interface EmbedTask {
  modelDir: string;
  texts: string[];
}

let loaded: { dir: string; encoder: SentenceEncoder } | undefined;

export const embedTexts = ({ modelDir, texts }: EmbedTask): Float32Array[] => {
  if (loaded?.dir !== modelDir) loaded = { dir: modelDir, encoder: loadSentenceEncoder(modelDir) };
  return loaded.encoder.embed(texts);
};
