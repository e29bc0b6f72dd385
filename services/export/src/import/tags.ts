/** The longest tag the notes service accepts (libs/api `Tag`). */
export const TAG_MAX_LENGTH = 64;
/** Tags one note may have (libs/api `NoteCreate`). */
export const TAGS_MAX = 50;

// The composer's rule (frontends/notes/src/composer/hashTags.ts), copied: a service cannot
// import a frontend package. tags.test.ts runs both on the same texts so they stay one rule.
const HASH_TAG = /(^|[\s([{"'“‘，。、；：！？])#([\p{L}\p{N}][\p{L}\p{N}_\-/]*)/gu;
const CODE = /```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`/g;

/**
 * The tags a text names with `#tag`, as the app's composer reads them: in the order they first
 * appear, without repeats (case-insensitively), not in code, trailing `-`, `_` or `/` dropped,
 * at most TAG_MAX_LENGTH characters.
 */
export const hashTags = (text: string): string[] => {
  const prose = text.replace(CODE, ' ');
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const match of prose.matchAll(HASH_TAG)) {
    const tag = (match[2] ?? '').replace(/[_\-/]+$/, '');
    if (!tag || tag.length > TAG_MAX_LENGTH) continue;
    const key = tag.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
};

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
