/**
 * The retrieval quality check: recall@5 and MRR of BM25, embeddings and their reciprocal-rank
 * fusion over the fixture corpus (services/ai/src/test/retrieval-corpus.ts), as the ai service
 * ranks a user's chunks, with each of the local provider's embeddings: the sentence encoder
 * (the default) and the hashed vectors.
 *
 *   npm run eval:ai
 */
import { loadSentenceEncoder } from '../../services/ai/src/local/use/encoder.js';
import { DEFAULT_USE_MODEL_DIR, USE_MODEL } from '../../services/ai/src/local/use/model-dir.js';
import { HASHED_EMBEDDING_MODEL } from '../../services/ai/src/local/embeddings.js';
import {
  evaluateRetrieval,
  hashedEmbeddings,
  indexOfNotes,
  type EmbedTexts,
} from '../../services/ai/src/retrieval/evaluate.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';

const encoder = loadSentenceEncoder(DEFAULT_USE_MODEL_DIR);
const embeddings: [string, EmbedTexts][] = [
  [USE_MODEL, (texts) => encoder.embed(texts)],
  [HASHED_EMBEDDING_MODEL, hashedEmbeddings],
];

const multi = corpusQuestions.filter((question) => question.relevant.length > 1).length;
for (const [model, embed] of embeddings) {
  const started = performance.now();
  const index = indexOfNotes(corpusNotes, embed);
  const quality = evaluateRetrieval(index, corpusQuestions, undefined, embed);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\nembeddings: ${model} (${seconds} s); corpus: ${corpusNotes.length} notes ` +
      `(${index.chunkCount} chunks), ${corpusQuestions.length} questions (${multi} with several answering notes)`,
  );
  console.log('ranker     recall@5   MRR');
  for (const row of quality) {
    console.log(
      `${row.ranker.padEnd(10)} ${row.recallAt5.toFixed(3).padStart(8)}   ${row.mrr.toFixed(3)}`,
    );
  }
}
