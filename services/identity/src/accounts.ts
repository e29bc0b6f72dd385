import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { parseStored, readJson, writeJsonAtomic } from './files.js';

const accountRecord = z.object({
  sub: z.uuid(),
  email: z.string(),
  name: z.string(),
});

export type AccountRecord = z.infer<typeof accountRecord>;

const accountsFile = z.object({ accounts: z.array(accountRecord) });

const EMAIL = /^[^\s@<>"]+@[^\s@<>".]+(?:\.[^\s@<>".]+)*$/;
export const MAX_NAME_LENGTH = 100;

/** The claims of an account, as Keycloak puts them in tokens and at userinfo. */
export const accountClaims = (account: AccountRecord) => ({
  sub: account.sub,
  email: account.email,
  email_verified: true,
  name: account.name,
  preferred_username: account.email,
});

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Control characters (NUL among them) cannot be in a name or an address Noted stores. */
const isControl = (character: string) => {
  const code = character.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

export const hasControlCharacters = (text: string): boolean => [...text].some(isControl);

/** The text with its control characters taken out (to show back what was typed). */
export const withoutControlCharacters = (text: string): string =>
  [...text].filter((character) => !isControl(character)).join('');

export const isPlausibleEmail = (email: string): boolean =>
  email.length <= 254 && EMAIL.test(email) && !hasControlCharacters(email);

/**
 * The development provider's users: one stable subject (a random UUID) per email address,
 * kept in `<dataDir>/identity/accounts.json` so a user is the same user after a restart.
 */
export class AccountStore {
  readonly #file: string;
  readonly #byEmail = new Map<string, AccountRecord>();
  readonly #bySub = new Map<string, AccountRecord>();
  #writes: Promise<void> = Promise.resolve();

  private constructor(file: string, records: AccountRecord[]) {
    this.#file = file;
    for (const record of records) this.#remember(record);
  }

  static async open(dataDir: string): Promise<AccountStore> {
    const file = join(dataDir, 'identity', 'accounts.json');
    const stored = await readJson(file);
    const records = stored === undefined ? [] : parseStored(file, accountsFile, stored).accounts;
    return new AccountStore(file, records);
  }

  bySub(sub: string): AccountRecord | undefined {
    return this.#bySub.get(sub);
  }

  byEmail(email: string): AccountRecord | undefined {
    return this.#byEmail.get(normalizeEmail(email));
  }

  /**
   * Finds the account for an email address, creating it on first sign-in. A display name,
   * when given, replaces the stored one.
   */
  async signIn(email: string, displayName?: string): Promise<AccountRecord> {
    const normalized = normalizeEmail(email);
    if (!isPlausibleEmail(normalized)) throw new Error('not a plausible email address');
    const name = displayName?.trim().slice(0, MAX_NAME_LENGTH);
    const existing = this.#byEmail.get(normalized);
    if (existing && (!name || name === existing.name)) return existing;
    const record: AccountRecord = {
      sub: existing?.sub ?? randomUUID(),
      email: normalized,
      name: name || existing?.name || normalized.slice(0, normalized.indexOf('@')),
    };
    this.#remember(record);
    await this.#persist();
    return record;
  }

  /** Forgets an account (deleted): its email may sign up again, as a new subject. */
  async forget(sub: string): Promise<boolean> {
    const record = this.#bySub.get(sub);
    if (!record) return false;
    this.#bySub.delete(sub);
    this.#byEmail.delete(record.email);
    await this.#persist();
    return true;
  }

  #remember(record: AccountRecord): void {
    this.#byEmail.set(record.email, record);
    this.#bySub.set(record.sub, record);
  }

  #persist(): Promise<void> {
    const write = this.#writes.then(() =>
      writeJsonAtomic(this.#file, { accounts: [...this.#byEmail.values()] }),
    );
    this.#writes = write.catch(() => undefined);
    return write;
  }
}
