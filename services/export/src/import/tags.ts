import { TAG_MAX_LENGTH } from '@noted/api';

/** Tags one note may have (libs/api `NoteCreate`). */
export const TAGS_MAX = 50;

/**
 * A tag from front matter or a Notion column as the notes service takes it (no spaces, commas
 * or `#`, at most TAG_MAX_LENGTH characters): `#Project X` becomes `Project-X`; nothing left
 * gives undefined.
 */
export const tagOf = (raw: string): string | undefined => {
  const tag = raw
    .trim()
    .replace(/^#+/, '')
    .replace(/[\s,#]+/g, '-')
    .slice(0, TAG_MAX_LENGTH)
    .replace(/^[-_/]+|[-_/]+$/g, '');
  return tag === '' ? undefined : tag;
};

/** Tags merged in order, once each (case-insensitively, first spelling kept), at most TAGS_MAX. */
export const mergeTags = (...lists: readonly (readonly string[])[]): string[] => {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of lists.flat()) {
    const key = tag.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (tags.length === TAGS_MAX) break;
  }
  return tags;
};
