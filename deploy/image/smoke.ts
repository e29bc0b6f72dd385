/**
 * What deploy/image/check.sh and deploy/k8s/e2e.sh ask of a running Noted, through its public
 * API: a user signs in with the development provider, creates a note, finds it by full-text and
 * by AI search, and hears of an edit to it on the live connection (`noteUpdated`); it prints
 * the note's id last. With `--kept ID` it checks only that an earlier run's note is still there.
 *
 *   NOTED_URL=http://localhost:18480 node --conditions=@noted/source --import tsx deploy/image/smoke.ts
 */
import { createApiClient } from '@noted/api';
import { passwordGrant } from '@noted/testing';
import { WebSocket } from 'ws';

const base = process.env.NOTED_URL ?? 'http://localhost:18480';
const token = await passwordGrant({ realmUrl: `${base}/realms/noted`, email: 'ada@noted.dev' });
const client = createApiClient({ baseUrl: base, getToken: async () => token.accessToken });

// `smoke.ts --kept ID`: only that the note written by an earlier run is still there (after an
// upgrade, a rollback), as it was left.
if (process.argv[2] === '--kept') {
  const kept = await client.notes.get(process.argv[3] ?? '');
  if (!kept.note.endsWith('note, edited.'))
    throw new Error(`note ${kept.id} is not as it was left`);
  console.log(`note ${kept.id} is there as it was left`);
  process.exit(0);
}

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
// The live connection: welcomed, then told of the edit.
const { url } = await client.live.token();
const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${url}`, { origin: base });
const heard = (type: string) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} on the live connection`)), 20_000);
    socket.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type?: string }).type !== type) return;
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', reject);
  });
await heard('welcome');
const updated = heard('noteUpdated');
await client.notes.update(note.id, { note: `A ${word} note, edited.` });
await updated;
socket.close();
console.log(
  'signed in as ada@noted.dev, created a note, found it by words and by meaning, ' +
    'heard its edit on the live connection',
);
// Last, for scripts: the note's id.
console.log(note.id);
