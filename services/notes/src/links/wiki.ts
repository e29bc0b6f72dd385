import type { Knex } from 'knex';
import type { EventTransaction } from '@noted/db';
import { noteOutbox } from '../notes/events.js';
import type { NoteRow } from '../notes/repository.js';
import { linksRepository } from './repository.js';

/** A body of 1 MB could name very many; beyond this many distinct titles the rest are ignored. */
const MAX_WIKI_TITLES = 500;

const WIKI_LINK = /\[\[([^[\]|\n]+)(?:\|[^[\]\n]*)?\]\]/g;

/** The titles named by `[[Title]]` and `[[Title|shown text]]` in a body, once each. */
export const wikiTitles = (body: string): string[] => {
  const titles = new Map<string, string>();
  for (const match of body.matchAll(WIKI_LINK)) {
    const title = match[1]?.trim() ?? '';
    if (title !== '' && !titles.has(title.toLowerCase())) titles.set(title.toLowerCase(), title);
    if (titles.size >= MAX_WIKI_TITLES) break;
  }
  return [...titles.values()];
};

/**
 * Makes the wiki links of one note follow its body; answers whether any changed. `refs` says
 * what to do with the titles the body names: record them for a note just created (which has
 * no links yet either), replace them for a changed one, keep them when only others changed.
 */
const syncOne = async (
  trx: Knex.Transaction,
  userId: string,
  row: NoteRow,
  refs: 'created' | 'changed' | 'unchanged',
) => {
  const titles = wikiTitles(row.body);
  if (refs !== 'unchanged') {
    await linksRepository.setWikiRefs(trx, userId, row.id, titles, refs === 'created');
  }
  const targets = await linksRepository.resolveTitles(trx, userId, row.id, titles);
  const removed =
    refs === 'created' ? 0 : await linksRepository.removeWikiExcept(trx, userId, row.id, targets);
  const added = await linksRepository.insert(trx, userId, row.id, targets, 'wiki');
  return removed + added > 0;
};

/**
 * Recomputes the wiki links of a note that was just created or changed, in its transaction,
 * and those of the user's other notes whose `[[...]]` may now resolve differently (the note
 * has a new title, or is the newest with its title). The caller announces `row`; the other
 * notes whose links changed are announced here.
 */
export const syncWikiLinks = async (
  trx: EventTransaction,
  userId: string,
  row: NoteRow,
  created = false,
): Promise<void> => {
  await syncOne(trx, userId, row, created ? 'created' : 'changed');
  await resyncWikiReferrers(trx, userId, await wikiReferrersOf(trx, userId, row));
};

/** The user's other notes whose [[...]] names `note` now, or resolves to it. */
export const wikiReferrersOf = (
  trx: Knex.Transaction,
  userId: string,
  note: Pick<NoteRow, 'id' | 'title'>,
): Promise<NoteRow[]> => linksRepository.wikiReferrers(trx, userId, note);

/** Resolves the wiki links of `referrers` again, and announces the ones that changed. */
export const resyncWikiReferrers = async (
  trx: EventTransaction,
  userId: string,
  referrers: NoteRow[],
): Promise<void> => {
  for (const referrer of referrers) {
    if (await syncOne(trx, userId, referrer, 'unchanged')) {
      await noteOutbox.updated(trx, referrer);
    }
  }
};
