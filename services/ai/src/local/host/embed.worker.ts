/**
 * A local model in one of the piscina worker threads of the models' process (`embed.host.ts`):
 * a batch takes tens to hundreds of milliseconds of arithmetic. A thread serves one model (the
 * host keeps a pool per model), read on its first task, and lives as long as the process.
 * Imports nothing from the workspace, so the thread starts the same from source and from dist.
 */
import { loadE5Encoder } from '../e5/encoder.js';
import { loadSentenceEncoder } from '../use/encoder.js';

/** The models a thread can run: the sentence encoder, and e5 for a query or a passage. */
export type EmbedModel = 'use' | 'e5';
export type EmbedKind = 'query' | 'passage';

export interface EmbedTask {
  model: EmbedModel;
  modelDir: string;
  texts: string[];
  /** What e5 embeds the texts as; the sentence encoder embeds all alike. */
  kind?: EmbedKind;
}

type Embed = (texts: string[], kind: EmbedKind) => Float32Array[];

let loaded: { key: string; embed: Embed } | undefined;

const load = (model: EmbedModel, modelDir: string): Embed => {
  if (model === 'e5') {
    const encoder = loadE5Encoder(modelDir);
    return (texts, kind) => encoder.embed(texts, kind);
  }
  const encoder = loadSentenceEncoder(modelDir);
  return (texts) => encoder.embed(texts);
};

export const embedTexts = ({ model, modelDir, texts, kind = 'passage' }: EmbedTask) => {
  const key = `${model}:${modelDir}`;
  if (loaded?.key !== key) loaded = { key, embed: load(model, modelDir) };
  return loaded.embed(texts, kind);
};
