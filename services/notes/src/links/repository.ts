import type { Knex } from 'knex';
import type { NoteLinkKind } from '@noted/api';
import { noteColumns, type NoteRow } from '../notes/repository.js';

export interface NoteLinkRow {
  user_id: string;
  source_id: string;
  target_id: string;
  kind: NoteLinkKind;
  created_at: Date;
}

export interface LinkedNoteRow {
  id: string;
  title: string;
  kind: NoteLinkKind;
}

type Db = Knex | Knex.Transaction;

const linked = (db: Db, userId: string, from: 'source_id' | 'target_id', noteId: string) => {
  const other = from === 'source_id' ? 'target_id' : 'source_id';
  return db('note_links as l')
    .join('notes as n', (on) => on.on('n.id', `l.${other}`).andOn('n.user_id', 'l.user_id'))
    .where({ 'l.user_id': userId, [`l.${from}`]: noteId })
    .select<LinkedNoteRow[]>('n.id', 'n.title', 'l.kind')
    .orderByRaw('lower(n.title), n.id, l.kind');
};

/** Every query names the owner: a link is only ever between two notes of one user. */
export const linksRepository = {
  outgoing: (db: Db, userId: string, noteId: string) => linked(db, userId, 'source_id', noteId),

  backlinks: (db: Db, userId: string, noteId: string) => linked(db, userId, 'target_id', noteId),

  /** Inserts what is not there yet; answers how many links were new. */
  insert: async (
    db: Db,
    userId: string,
    sourceId: string,
    targetIds: string[],
    kind: NoteLinkKind,
  ) => {
    if (targetIds.length === 0) return 0;
    const inserted = await db<NoteLinkRow>('note_links')
      .insert(
        targetIds.map((targetId) => ({
          user_id: userId,
          source_id: sourceId,
          target_id: targetId,
          kind,
        })),
      )
      .onConflict(['source_id', 'target_id', 'kind'])
      .ignore()
      .returning('target_id');
    return inserted.length;
  },

  remove: async (db: Db, userId: string, sourceId: string, targetId: string, kind: NoteLinkKind) =>
    db<NoteLinkRow>('note_links')
      .where({ user_id: userId, source_id: sourceId, target_id: targetId, kind })
      .delete(),

  /** Removes the wiki links of a note that no longer point at one of `keep`; answers how many. */
  removeWikiExcept: async (db: Db, userId: string, sourceId: string, keep: string[]) => {
    const query = db<NoteLinkRow>('note_links').where({
      user_id: userId,
      source_id: sourceId,
      kind: 'wiki',
    });
    if (keep.length > 0) query.whereNotIn('target_id', keep);
    return query.delete();
  },

  /**
   * The ids of the user's notes with these titles (case-insensitive), the newest per title,
   * leaving out the linking note itself.
   */
  resolveTitles: async (db: Db, userId: string, sourceId: string, titles: string[]) => {
    if (titles.length === 0) return [];
    const rows = await db('notes')
      .select<{ id: string }[]>(db.raw('distinct on (lower(title)) id'))
      .where({ user_id: userId })
      .whereNot({ id: sourceId })
      .whereRaw('lower(title) in (select lower(t) from unnest(?::text[]) as t)', [titles])
      .orderByRaw('lower(title), created_at desc, id desc');
    return rows.map((row) => row.id);
  },

  /** Records the titles a body names in [[...]] (lower case), replacing what it named before. */
  setWikiRefs: async (
    db: Db,
    userId: string,
    sourceId: string,
    titles: string[],
    fresh: boolean,
  ) => {
    if (!fresh) await db('note_wiki_refs').where({ user_id: userId, source_id: sourceId }).delete();
    const keys = [...new Set(titles.map((title) => title.toLowerCase()))];
    if (keys.length === 0) return;
    await db('note_wiki_refs')
      .insert(keys.map((title_key) => ({ user_id: userId, source_id: sourceId, title_key })))
      .onConflict(['source_id', 'title_key'])
      .ignore();
  },

  /**
   * The user's other notes whose wiki links may change when `note` appears or is renamed:
   * those wiki-linking to it now, and those whose body names its title in [[...]]. Two
   * indexed lookups joined by a union.
   */
  wikiReferrers: async (db: Db, userId: string, note: Pick<NoteRow, 'id' | 'title'>) => {
    const linked = db('note_links')
      .select('source_id as id')
      .where({ user_id: userId, target_id: note.id, kind: 'wiki' });
    const ids =
      note.title.trim() === ''
        ? linked
        : linked.union(
            db('note_wiki_refs')
              .select('source_id as id')
              .where({ user_id: userId, title_key: note.title.trim().toLowerCase() }),
          );
    return db<NoteRow>('notes')
      .select<NoteRow[]>(noteColumns())
      .where({ user_id: userId })
      .whereNot({ id: note.id })
      .whereIn('id', ids)
      .orderBy('id');
  },

  /**
   * The nodes of the user's graph: linked notes first (most links first), then the most
   * recently updated, at most `limit`.
   */
  graphNodes: (db: Db, userId: string, limit: number) =>
    db
      .with('degrees', (q) =>
        q
          .select('id')
          .count<{ id: string; degree: string }[]>('* as degree')
          .from(
            db
              .select('source_id as id')
              .from('note_links')
              .where({ user_id: userId })
              .unionAll((u) => u.select('target_id').from('note_links').where({ user_id: userId }))
              .as('ends'),
          )
          .groupBy('id'),
      )
      .from('notes as n')
      .leftJoin('degrees as d', 'd.id', 'n.id')
      .where('n.user_id', userId)
      .select<
        { id: string; title: string; tags: string[]; is_pinned: boolean; degree: string | null }[]
      >('n.id', 'n.title', 'n.tags', 'n.is_pinned', 'd.degree')
      .orderByRaw('d.degree desc nulls last, n.updated_at desc, n.id')
      .limit(limit),

  /** The links of the user between the notes given. */
  graphEdges: (db: Db, userId: string, ids: string[]) =>
    ids.length === 0
      ? Promise.resolve([])
      : db<NoteLinkRow>('note_links')
          .where({ user_id: userId })
          .whereRaw('source_id = any(?::uuid[]) and target_id = any(?::uuid[])', [ids, ids])
          .select('source_id', 'target_id', 'kind')
          .orderBy(['source_id', 'target_id', 'kind']),
};
