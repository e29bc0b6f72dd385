/**
 * The retrieval quality check: recall@5 and MRR of BM25, embeddings, the hybrid ranking
 * (meaning first, words as evidence; retrieval/hybrid.ts) and its relevant notes, which AI
 * search and knowledge chat are given (`retrieveNotes`), over the fixture corpus
 * (services/ai/src/test/retrieval-corpus.ts), as the ai service ranks a user's chunks, with
 * each of the local provider's embeddings: the sentence encoder fused with e5 (the default;
 * e5's vectors are kept under the cache folder after the first run, see `e5Encoder`), the
 * sentence encoder alone and the hashed vectors. One table per embedding model, a row per question group (the number of questions in
 * brackets) and for all; for questions no note answers, the share for which nothing is found.
 *
 *   npm run eval:ai
 */
import {
  evaluateRetrieval,
  type EvaluatedRanker,
  indexOfNotes,
  localEmbeddings,
} from '../../services/ai/src/retrieval/evaluate.js';
import { fusedModel } from '../../services/ai/src/retrieval/hybrid.js';
import { cacheDir } from './cache-dir.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';

const embeddings = localEmbeddings(cacheDir);

// Column headings for the rankers, in the order evaluateRetrieval reports them.
const rankers: [EvaluatedRanker, string][] = [
  ['bm25', 'lexical (bm25)'],
  ['semantic', 'embeddings'],
  ['hybrid', 'hybrid'],
  ['retrieved', 'search and chat'],
];
const width = 14;
const figures = (value: number): string => value.toFixed(3);
const row = (label: string, cells: string[]): string =>
  `${label.padEnd(16)}${cells.map((text) => ` | ${text.padEnd(width)}`).join('')}`.trimEnd();

const headings = rankers.map(([, heading]) => heading);
const subheadings = rankers.map(() => `${'R@5'.padEnd(9)}MRR`);

for (const [model, embed, retrieval] of embeddings) {
  const started = performance.now();
  const index = indexOfNotes(corpusNotes, embed, retrieval);
  const quality = evaluateRetrieval(
    index,
    corpusQuestions,
    rankers.map(([ranker]) => ranker),
    embed,
    model,
    retrieval,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const name = retrieval ? fusedModel(model, retrieval.model) : model;
  console.log(
    `\nembeddings: ${name}${retrieval ? ' (the default)' : ''} (${seconds} s); corpus: ${corpusNotes.length} notes ` +
      `(${index.chunkCount} chunks), ${corpusQuestions.length} questions`,
  );
  console.log(row('group', headings));
  console.log(row('', subheadings));
  for (const group of Object.keys(quality[0]?.groups ?? {})) {
    const count = quality[0]!.groups[group]!.questions;
    const cells = quality.map(({ groups }) => {
      const scores = groups[group]!;
      return `${figures(scores.recallAt5)}    ${figures(scores.mrr)}`;
    });
    // A question no note answers scores 1 when nothing is found: the share told so.
    console.log(row(`${group} (${count})${group === 'none' ? ' *' : ''}`, cells));
  }
  console.log('* questions no note answers: the share for which nothing is found (not in all)');
}
