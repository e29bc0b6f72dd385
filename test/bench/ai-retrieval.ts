/**
 * The retrieval quality check: recall@5 and MRR of BM25, hashed embeddings and their
 * reciprocal-rank fusion over the fixture corpus (services/ai/src/test/retrieval-corpus.ts),
 * with the local provider, as the ai service ranks a user's chunks.
 *
 *   npm run eval:ai
 */
import { evaluateRetrieval, indexOfNotes } from '../../services/ai/src/retrieval/evaluate.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';

const index = indexOfNotes(corpusNotes);
const quality = evaluateRetrieval(index, corpusQuestions);
const multi = corpusQuestions.filter((question) => question.relevant.length > 1).length;
console.log(
  `corpus: ${corpusNotes.length} notes (${index.chunkCount} chunks), ` +
    `${corpusQuestions.length} questions (${multi} with several answering notes)`,
);
console.log('ranker     recall@5   MRR');
for (const row of quality) {
  console.log(
    `${row.ranker.padEnd(10)} ${row.recallAt5.toFixed(3).padStart(8)}   ${row.mrr.toFixed(3)}`,
  );
}
