/**
 * A local model in one of the piscina worker threads of the models' process (`embed.host.ts`):
 * a batch takes tens to hundreds of milliseconds of arithmetic. A thread serves one model (the
 * host keeps a pool per model), loaded by its first task, and lives as long as the process.
 * The sentence encoder's threads are handed its weights and its texts tokenized by the host,
 * which holds the one copy of each; e5's thread loads its model itself (it has one thread).
 * Imports nothing from the workspace, so the thread starts the same from source and from dist.
 */
import { workerData } from 'piscina';
import { loadE5Encoder, type E5Encoder } from '../e5/encoder.js';
import {
  createSentenceNetwork,
  type SentenceEncoderWeights,
  type SentenceNetwork,
} from '../use/encoder.js';
import { rowsInFile } from '../use/table.js';

/** The models a thread can run: the sentence encoder, and e5 for a query or a passage. */
export type EmbedModel = 'use' | 'e5';
export type EmbedKind = 'query' | 'passage';

export type EmbedTask =
  /** Texts as the sentence encoder's pieces (`SentencePiece.encode`). */
  | { model: 'use'; tokens: number[][] }
  | { model: 'e5'; modelDir: string; texts: string[]; kind: EmbedKind };

/**
 * What the host gives the sentence encoder's threads: its weights, in SharedArrayBuffers, and
 * the file its embedding table is read from (else `weights` hold the table too).
 */
export interface EmbedThreadData {
  weights: SentenceEncoderWeights;
  rowsFile?: string;
}

const given = workerData as EmbedThreadData | undefined;
let network: SentenceNetwork | undefined;
let e5: { modelDir: string; encoder: E5Encoder } | undefined;

export const embedTexts = (task: EmbedTask): Float32Array[] => {
  if (task.model === 'use') {
    if (!given) throw new Error("the sentence encoder's threads are given its weights");
    network ??= createSentenceNetwork(
      given.weights,
      given.rowsFile ? rowsInFile(given.rowsFile) : undefined,
    );
    return network.embedTokens(task.tokens);
  }
  if (e5?.modelDir !== task.modelDir) {
    e5 = { modelDir: task.modelDir, encoder: loadE5Encoder(task.modelDir) };
  }
  return e5.encoder.embed(task.texts, task.kind);
};
