/**
 * What deploy/image/check.sh asks of a running image, through its public API: a user signs in
 * with the development provider, creates a note, and finds it by full-text and by AI search.
 *
 *   NOTED_URL=http://localhost:18480 node --conditions=@noted/source --import tsx deploy/image/smoke.ts
 */
import { createApiClient } from '@noted/api';
import { passwordGrant } from '@noted/testing';

const base = process.env.NOTED_URL ?? 'http://localhost:18480';
const token = await passwordGrant({ realmUrl: `${base}/realms/noted`, email: 'ada@noted.dev' });
const client = createApiClient({ baseUrl: base, getToken: async () => token.accessToken });

const word = `container${Date.now()}`;
const note = await client.notes.create({ title: 'From the image', note: `A ${word} note.` });
const deadline = Date.now() + 60_000;
for (;;) {
  const [byWords, byMeaning] = await Promise.all([
    client.notes.list({ search: word }),
    client.ai.search({ query: word }),
  ]);
  const found = (ids: string[]) => ids.includes(note.id);
  if (found(byWords.items.map((n) => n.id)) && found(byMeaning.items.map((h) => h.note.id))) break;
  if (Date.now() > deadline) throw new Error(`note ${note.id} was not found by search in a minute`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log(
  `signed in as ada@noted.dev, created note ${note.id}, found it by words and by meaning`,
);
