/**
 * The chat's citation check, without a language model: over the fixture corpus
 * (services/ai/src/test/retrieval-corpus.ts), each question is answered as the chat answers it
 * without a chat model (hybrid retrieval of 8 passages, then the extractive answer) and its
 * citations are compared with the notes known to answer it. Printed for each of the local
 * provider's embeddings (the sentence encoder fused with e5, the default; the sentence encoder
 * alone; the hashed vectors), for the
 * answer's former scoring (word overlap and hashed vectors, any 4 sentences) and its scoring now.
 *
 *   npm run eval:chat
 */
import {
  evaluateChatCitations,
  extractiveAnswerer,
  wordOverlapAnswerer,
  type Answerer,
} from '../../services/ai/src/chat/evaluate.js';
import { indexOfNotes, localEmbeddings } from '../../services/ai/src/retrieval/evaluate.js';
import { fusedModel } from '../../services/ai/src/retrieval/hybrid.js';
import { cacheDir } from './cache-dir.js';
import { corpusNotes, corpusQuestions } from '../../services/ai/src/test/retrieval-corpus.js';

const embeddings = localEmbeddings(cacheDir);

const percent = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(7);

console.log(
  `corpus: ${corpusNotes.length} notes, ${corpusQuestions.length} questions; recall@5 = share ` +
    "of the answering notes among the notes the answer reads (search's recall@5); " +
    'answered = cites at least one answering note; precise = cites answering notes only; ' +
    'honest = of the questions no note answers, the share answered with no citation',
);
for (const [model, embed, retrieval] of embeddings) {
  const started = performance.now();
  const index = indexOfNotes(corpusNotes, embed, retrieval);
  const scorings: [string, Answerer][] = [
    ['before (words + hashed, top 4)', wordOverlapAnswerer],
    ['after (embeddings, relative)', extractiveAnswerer(embed)],
  ];
  console.log(
    `\nembeddings: ${retrieval ? `${fusedModel(model, retrieval.model)} (the default)` : model}`,
  );
  console.log(
    'scoring                          recall@5  retrieved  answered  precise  notes cited  honest',
  );
  for (const [name, answer] of scorings) {
    const quality = await evaluateChatCitations(
      index,
      corpusNotes,
      corpusQuestions,
      embed,
      model,
      answer,
      retrieval,
    );
    console.log(
      `${name.padEnd(32)} ${quality.recallAt5.toFixed(3).padStart(8)}  ` +
        `${percent(quality.retrieved)}   ${percent(quality.answered)}  ` +
        `${percent(quality.precise)}  ${quality.citedNotes.toFixed(2).padStart(11)}  ` +
        `${percent(quality.honest)} of ${quality.unanswerable}`,
    );
  }
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
