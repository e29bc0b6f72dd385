/**
 * The sentence encoder in one of the piscina worker threads of the model's process
 * (`embed.host.ts`): a batch takes tens to hundreds of milliseconds of arithmetic. The model is
 * read on the thread's first task and lives as long as the thread, which lives as long as
 * the process. Imports nothing from the workspace, so the thread
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
