import * as z from 'zod';

/**
 * The white space of JavaScript (what `trim()` strips and `\s` matches), spelled out: the
 * document's patterns are read by other regex engines too (Python's, Rust's), where `\s` means
 * other characters, and each must agree with the server on what is blank.
 */
export const WHITE_SPACE =
  '\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** A string with a character that is not white space: `trim()` leaves something of it. */
export const NOT_BLANK = new RegExp(`[^${WHITE_SPACE}]`);

/** Text that is not blank, stated as a pattern so the document says so too. */
export const notBlank = (message: string) => z.string().regex(NOT_BLANK, message);

/** A UUID of any version, as Postgres takes it. */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The address of a stored image of a note, as the note lists it. */
const NOTE_IMAGE_PATH_SOURCE = `/api/notes/${UUID}/images/[A-Za-z0-9_-]{22}\\.webp`;
export const NOTE_IMAGE_PATH = new RegExp(`^${NOTE_IMAGE_PATH_SOURCE}$`);

const TAG_IN_JSON = `"(?:[^${WHITE_SPACE}#,"\\\\\\x00-\\x1f]|\\\\["\\\\]){1,64}"`;
const IMAGE_IN_JSON = `"${NOTE_IMAGE_PATH_SOURCE}"`;

/**
 * The JSON text of an array of at most 50 tags, written as JSON.stringify writes it: a pattern,
 * so the document states what a form field of tags takes (escapes but `\"` and `\\` are left
 * out, as no tag needs them).
 */
export const TAGS_JSON = new RegExp(`^\\[(?:${TAG_IN_JSON}(?:,${TAG_IN_JSON}){0,49})?\\]$`);

/** The JSON text of an array of at most 100 addresses of a note's images. */
export const NOTE_IMAGES_JSON = new RegExp(
  `^\\[(?:${IMAGE_IN_JSON}(?:,${IMAGE_IN_JSON}){0,99})?\\]$`,
);

/** How a key counts as given: present at all, or a string that is not blank. */
type Given = 'present' | 'notBlank';

const isGiven = (value: unknown, given: Given) =>
  given === 'present' ? value !== undefined : typeof value === 'string' && NOT_BLANK.test(value);

/** `anyOf` over the keys, each required (and not blank, where so): at least one is given. */
export const anyOfKeys = (keys: Record<string, Given>) =>
  Object.entries(keys).map(([key, given]) =>
    given === 'present'
      ? { required: [key] }
      : { required: [key], properties: { [key]: { type: 'string', pattern: NOT_BLANK.source } } },
  );

/**
 * An object that must have at least one of some keys: checked by a refinement (one message, one
 * output type) and stated in the document as `anyOf` over the keys required, so every body JSON
 * Schema allows is one the server takes. `meta` is the schema's own (its id).
 */
export const requireOneOf = <S extends z.ZodObject>(
  schema: S,
  keys: Partial<Record<keyof z.input<S> & string, Given>>,
  message: string,
  meta: { id: string; description?: string; allOf?: unknown[] },
) => {
  const rule = Object.entries(keys) as [string, Given][];
  return schema
    .refine(
      (value: Record<string, unknown>) => rule.some(([key, given]) => isGiven(value[key], given)),
      { message, path: [rule[0]![0]] },
    )
    .meta({ ...meta, anyOf: anyOfKeys(Object.fromEntries(rule)) });
};
