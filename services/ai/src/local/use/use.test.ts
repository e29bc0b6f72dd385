import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dot } from '../embeddings.js';
import { createLocalEmbedder } from '../host/embedder.js';
import { loadSentenceEncoder, USE_DIMENSIONS } from './encoder.js';
import { DEFAULT_USE_MODEL_DIR, missingModelFiles } from './model-dir.js';

/** Outputs of the Python package this is ported from (`use.fixture.py` writes them). */
const reference = JSON.parse(
  readFileSync(new URL('./use.fixture.json', import.meta.url), 'utf8'),
) as {
  tokens: { text: string; ids: number[] }[];
  vectors: { text: string; first8: number[] }[];
  cosines: number[][];
};

const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);

describe('the Universal Sentence Encoder multilingual v3 port', () => {
  it('finds its vendored model files from source', () => {
    expect(missingModelFiles(DEFAULT_USE_MODEL_DIR)).toEqual([]);
  });

  it('splits text into the pieces sentencepiece gives, in any script', () => {
    for (const { text, ids } of reference.tokens) {
      expect(encoder.tokenizer.encode(text), text).toEqual(ids);
    }
  });

  it('gives a text with no pieces one unknown token, as the model needs one', () => {
    expect(encoder.tokenizer.encode('')).toEqual([1, 0, 2]);
    expect(encoder.tokenizer.encode('  \n ')).toEqual([1, 0, 2]);
  });

  it('embeds as the Python package does, one text at a time or batched', () => {
    const texts = reference.vectors.map((vector) => vector.text);
    const batched = encoder.embed(texts);
    texts.forEach((text, i) => {
      const [alone] = encoder.embed([text]);
      expect(alone).toHaveLength(USE_DIMENSIONS);
      expect(dot(alone!, alone!)).toBeCloseTo(1, 5);
      expect(dot(alone!, batched[i]!)).toBeGreaterThan(0.99999);
      reference.vectors[i]!.first8.forEach((value, k) => expect(alone![k]).toBeCloseTo(value, 4));
      texts.forEach((_, j) =>
        expect(dot(batched[i]!, batched[j]!)).toBeCloseTo(reference.cosines[i]![j]!, 4),
      );
    });
  });

  it('puts a reworded question, and its Chinese translation, nearest the note that answers it', () => {
    const [note, other, question, chinese] = encoder.embed([
      'Mechanic: new brake pads, $340',
      'Dentist appointment moved to Thursday 3pm',
      'How much did fixing the car cost?',
      '修车花了多少钱？',
    ]);
    expect(dot(question!, note!)).toBeGreaterThan(dot(question!, other!));
    expect(dot(chinese!, note!)).toBeGreaterThan(dot(chinese!, other!));
  });
});

describe('the local embedding model in worker threads', () => {
  const embedder = createLocalEmbedder({ use: { modelDir: DEFAULT_USE_MODEL_DIR, threads: 2 } });
  afterAll(() => embedder.close());

  it('embeds in batches on both threads, in order, as the encoder does on this thread', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `note number ${i} about the garden`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(70);
    const picked = [0, 31, 32, 33, 64, 69];
    const direct = encoder.embed(picked.map((i) => texts[i]!));
    picked.forEach((i, n) =>
      expect(dot(vectors[i]!, direct[n]!), `text ${i}`).toBeGreaterThan(0.99999),
    );
  });

  it('fails as a provider failure when the model cannot be read', async () => {
    const broken = createLocalEmbedder({ use: { modelDir: '/nonexistent/model' } });
    await expect(broken.embed(['anything'])).rejects.toMatchObject({ code: 'AI_PROVIDER_FAILED' });
    await broken.close();
  });
});
