import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppError } from '@noted/api';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals integration tokens at rest with AES-256-GCM under a key derived (HKDF-SHA256) from the
 * internal secret, so a copy of the database alone gives no token. Sealed: nonce, tag, text.
 */
export const tokenBox = (internalSecret: string) => {
  const key = Buffer.from(
    hkdfSync('sha256', internalSecret, 'noted-export', 'notion-token aes-256-gcm', 32),
  );
  return {
    seal: (token: string): Buffer => {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const text = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      return Buffer.concat([nonce, cipher.getAuthTag(), text]);
    },
    /** NOTION_TOKEN_INVALID when it cannot be opened (sealed under another secret). */
    open: (sealed: Buffer): string => {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
        decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        const text = sealed.subarray(NONCE_BYTES + TAG_BYTES);
        return Buffer.concat([decipher.update(text), decipher.final()]).toString('utf8');
      } catch {
        throw new AppError(
          'NOTION_TOKEN_INVALID',
          'The Notion token kept cannot be read any more; connect Notion again',
        );
      }
    },
  };
};

export type TokenBox = ReturnType<typeof tokenBox>;
