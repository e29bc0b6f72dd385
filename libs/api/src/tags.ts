/**
 * `#tags` in a note's text, read the same way by the composer and by the importers.
 */

/** The longest tag the notes service accepts (`Tag`). */
export const TAG_MAX_LENGTH = 64;

/**
 * `#word` at the start of the text or after a space or an opening bracket: letters (any
 * script) and digits, then also `_`, `-` and `/` (for `#work/q4`). Not `#` followed by a
 * space (a Markdown heading), not `a#b` or `/#anchor` (inside a word or an address).
 */
const HASH_TAG = /(^|[\s([{"'“‘，。、；：！？])#([\p{L}\p{N}][\p{L}\p{N}_\-/]*)/gu;

/** Code is not prose: tags inside fences or backticks are not tags. */
const CODE = /```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`/g;

/**
 * The tags a text names with `#tag`, in the order they first appear, without repeats
 * (case-insensitively), trailing `-`, `_` or `/` dropped, at most TAG_MAX_LENGTH characters.
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
