import { randomUUID } from 'node:crypto';
import { words } from '../bench/words.js';
import {
  dynamic,
  pickFrom,
  seedNotes,
  sequence,
  signIn,
  tags,
  type LoadScript,
  type User,
  waitIndexed,
} from './load.js';

const users = 3;
const notesPerUser = 80;
const pageSize = 20;

/**
 * Browse and search: users page through their notes, filter by a tag, open a note, list their
 * tags, search by one or two words, as the notes list does while someone reads, and read their
 * plan, as the app does at every start (billing).
 */
export const browseSearch: LoadScript = {
  name: 'browse-and-search',
  does: `${users} users with ${notesPerUser} notes each: list pages, by tag, open a note, tags, search 1-2 words`,
  thresholds: { p95Ms: 750, p99Ms: 1500, errors: 0 },
  prepare: async (target, log) => {
    const run = randomUUID().slice(0, 8);
    const signedIn = await Promise.all(
      Array.from({ length: users }, (_, index) =>
        signIn(target, `load-browse-${run}-${index}@example.com`),
      ),
    );
    const started = Date.now();
    const seeded: { user: User; ids: string[] }[] = [];
    for (const [index, user] of signedIn.entries()) {
      seeded.push({ user, ids: await seedNotes(target, user, notesPerUser, index * notesPerUser) });
    }
    await Promise.all(signedIn.map((user) => waitIndexed(target, user, notesPerUser)));
    log(
      `seeded ${users * notesPerUser} notes (and the AI index caught up) in ${Date.now() - started} ms`,
    );
    const pages = Math.ceil(notesPerUser / pageSize);
    const next = sequence(7);
    const headers = () => pickFrom(seeded, next).user.headers;
    const word = () => pickFrom(words, next);
    return [
      dynamic(() => ({
        path: `/api/notes?page=1&limit=${pageSize}&pinnedFirst=true`,
        headers: headers(),
      })),
      dynamic(() => ({
        path: `/api/notes?page=${2 + next(pages - 1)}&limit=${pageSize}`,
        headers: headers(),
      })),
      dynamic(() => ({
        path: `/api/notes?page=1&limit=${pageSize}&tag=${pickFrom(tags, next)}`,
        headers: headers(),
      })),
      dynamic(() => {
        const { user, ids } = pickFrom(seeded, next);
        return { path: `/api/notes/${pickFrom(ids, next)}`, headers: user.headers };
      }),
      dynamic(() => ({ path: '/api/tags', headers: headers() })),
      // What the app asks at every start after signing in: the plan (billing service).
      dynamic(() => ({ path: '/api/stripe/subscription-status', headers: headers() })),
      dynamic(() => ({
        path: `/api/notes?search=${word()}&limit=${pageSize}`,
        headers: headers(),
      })),
      dynamic(() => ({
        path: `/api/notes?search=${encodeURIComponent(`${word()} ${word()}`)}&limit=${pageSize}`,
        headers: headers(),
      })),
    ];
  },
};
