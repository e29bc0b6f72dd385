import { randomUUID } from 'node:crypto';
import { words } from '../bench/words.js';
import {
  dynamic,
  pickFrom,
  seedNotes,
  sequence,
  signIn,
  waitIndexed,
  type LoadScript,
} from './load.js';

const users = 2;
const notesPerUser = 60;

/** Questions by meaning as well as by words: the search fuses full-text ranking and embeddings. */
const phrases = [
  'planning a trip to the mountains',
  'what did the customer say',
  'money spent this month',
  'ideas for the garden',
  'notes from the doctor',
];

/**
 * AI search: users search their notes by words and by meaning through the ai service
 * (`GET /ai/note/assist/search`), once its index has caught up with their notes.
 */
export const aiSearch: LoadScript = {
  name: 'ai-search',
  does: `${users} users with ${notesPerUser} indexed notes each: /ai/note/assist/search by 1-2 words or a phrase`,
  thresholds: { p95Ms: 2000, p99Ms: 3000, errors: 0 },
  prepare: async (target, log) => {
    const run = randomUUID().slice(0, 8);
    const signedIn = await Promise.all(
      Array.from({ length: users }, (_, index) =>
        signIn(target, `load-ai-${run}-${index}@example.com`),
      ),
    );
    const started = Date.now();
    for (const [index, user] of signedIn.entries()) {
      await seedNotes(target, user, notesPerUser, 1000 + index * notesPerUser);
    }
    await Promise.all(signedIn.map((user) => waitIndexed(target, user, notesPerUser)));
    log(`seeded and indexed ${users * notesPerUser} notes in ${Date.now() - started} ms`);
    const next = sequence(13);
    const headers = () => pickFrom(signedIn, next).headers;
    const search = (query: string) => `/ai/note/assist/search?query=${encodeURIComponent(query)}`;
    return [
      dynamic(() => ({ path: search(pickFrom(words, next)), headers: headers() })),
      dynamic(() => ({
        path: search(`${pickFrom(words, next)} ${pickFrom(words, next)}`),
        headers: headers(),
      })),
      dynamic(() => ({ path: search(pickFrom(phrases, next)), headers: headers() })),
    ];
  },
};
