import { randomUUID } from 'node:crypto';
import { dynamic, noteOf, pickFrom, sequence, signIn, tags, type LoadScript } from './load.js';

const users = 3;

interface Written {
  id: string;
  updatedAt: string;
}

/**
 * Create and edit: each client creates a note, saves a change to its body as the editor's
 * autosave does (with the version it edited, so a lost update would answer 409), retags it and
 * reads it back; then starts again with another note.
 */
export const createEdit: LoadScript = {
  name: 'create-and-edit',
  does: `${users} users: create a note, autosave its body (baseUpdatedAt), retag it, read it`,
  thresholds: { p95Ms: 1000, p99Ms: 2000, errors: 0 },
  prepare: async (target) => {
    const run = randomUUID().slice(0, 8);
    const signedIn = await Promise.all(
      Array.from({ length: users }, (_, index) =>
        signIn(target, `load-edit-${run}-${index}@example.com`),
      ),
    );
    const next = sequence(11);
    let created = 0;
    const written = (context: Record<string, unknown>) => context.note as Written | undefined;
    const keep = (status: number, body: string, context: Record<string, unknown>) => {
      if (status < 300) {
        const { id, updatedAt } = JSON.parse(body) as Written;
        context.note = { id, updatedAt };
      } else {
        delete context.note;
      }
    };
    const headersOf = (context: Record<string, unknown>) =>
      signedIn[context.user as number]?.headers ?? {};
    return [
      dynamic((context) => {
        context.user = next(signedIn.length);
        created += 1;
        return {
          method: 'POST',
          path: '/api/note/create/direct',
          headers: headersOf(context),
          body: JSON.stringify(noteOf(created)),
        };
      }, keep),
      dynamic((context) => {
        const note = written(context);
        if (!note) return undefined;
        return {
          method: 'PUT',
          path: `/api/notes/${note.id}`,
          headers: headersOf(context),
          body: JSON.stringify({
            note: `${noteOf(created + 1).note}\n\nEdited while under load.`,
            baseUpdatedAt: note.updatedAt,
          }),
        };
      }, keep),
      dynamic((context) => {
        const note = written(context);
        if (!note) return undefined;
        return {
          method: 'PUT',
          path: `/api/notes/${note.id}`,
          headers: headersOf(context),
          body: JSON.stringify({ tags: [pickFrom(tags, next), 'edited'] }),
        };
      }, keep),
      dynamic((context) => {
        const note = written(context);
        if (!note) return undefined;
        return { path: `/api/notes/${note.id}`, headers: headersOf(context) };
      }),
    ];
  },
};
