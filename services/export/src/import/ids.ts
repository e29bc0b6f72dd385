import { createHash } from 'node:crypto';

/** The namespace of every id an import chooses (a fixed random UUID, never to change). */
export const IMPORT_NAMESPACE = '99159063-fee1-44c9-aecf-31fe62464acc';

const uuidBytes = (uuid: string): Buffer => Buffer.from(uuid.replace(/-/g, ''), 'hex');

/** An RFC 9562 version 5 UUID: SHA-1 of the namespace and the name, version and variant set. */
export const uuidV5 = (name: string, namespace: string): string => {
  const hash = createHash('sha1')
    .update(uuidBytes(namespace))
    .update(Buffer.from(name, 'utf8'))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Where imported notes come from; part of their ids, so each source has its own. */
export type ImportSource = 'markdown' | 'notion';

/**
 * The note id of one imported item: the same user, source and key always give the same id
 * (a re-import updates instead of duplicating), and another user's import never meets it.
 * The key is the item's normalised path, or a Notion page's id.
 */
export const importNoteId = (userId: string, source: ImportSource, key: string): string =>
  uuidV5(`${userId}\n${source}\n${key}`, IMPORT_NAMESPACE);
