import { join } from 'node:path';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import * as z from 'zod';
import { parseStored, readJson, writeJsonAtomic } from './files.js';

interface Entry {
  payload: AdapterPayload;
  /** Milliseconds since the epoch; null for entries without expiry. */
  expiresAt: number | null;
}

const stateFile = z.object({
  entries: z.array(
    z.tuple([
      z.string(),
      z.object({
        payload: z.custom<AdapterPayload>((value) => typeof value === 'object' && value !== null),
        expiresAt: z.number().nullable(),
      }),
    ]),
  ),
});

/** Models whose entries die with their grant (as in oidc-provider's memory adapter). */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

const SAVE_DELAY_MS = 200;

export interface StateStoreOptions {
  /** Maps a value presented by a client to the stored id, per model (see refresh tokens). */
  resolveId?: Partial<Record<string, (value: string) => Promise<string | undefined>>>;
  /** Told when the state file cannot be written; the store keeps serving from memory. */
  onWriteError?: (error: unknown) => void;
}

/**
 * oidc-provider's storage: sessions, grants, codes and refresh tokens, in memory and written
 * to `<dataDir>/identity/state.json` shortly after each change, so a restart of `noted` keeps
 * people signed in. The development provider serves one process; this is not a shared store.
 */
export class StateStore {
  readonly #file: string;
  readonly #entries: Map<string, Entry>;
  readonly #resolveId: NonNullable<StateStoreOptions['resolveId']>;
  readonly #onWriteError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #writes: Promise<void> = Promise.resolve();

  private constructor(file: string, entries: Map<string, Entry>, options: StateStoreOptions) {
    this.#file = file;
    this.#entries = entries;
    this.#resolveId = options.resolveId ?? {};
    this.#onWriteError = options.onWriteError ?? (() => undefined);
  }

  static async open(dataDir: string, options: StateStoreOptions = {}): Promise<StateStore> {
    const file = join(dataDir, 'identity', 'state.json');
    const stored = await readJson(file);
    const entries = new Map<string, Entry>(
      stored === undefined ? [] : parseStored(file, stateFile, stored).entries,
    );
    const store = new StateStore(file, entries, options);
    store.#prune();
    return store;
  }

  /** The adapter factory oidc-provider calls once per model name. */
  readonly adapter = (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    const resolve = async (value: string) => {
      const resolver = this.#resolveId[model];
      return resolver ? resolver(value) : value;
    };
    return {
      upsert: async (id, payload, expiresIn) => {
        const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null;
        this.#entries.set(key(id), { payload, expiresAt });
        this.#changed();
      },
      find: async (value) => {
        const id = await resolve(value);
        return id === undefined ? undefined : this.#live(key(id))?.payload;
      },
      findByUid: async (uid) => this.#findWhere(model, (payload) => payload.uid === uid),
      findByUserCode: async (userCode) =>
        this.#findWhere(model, (payload) => payload.userCode === userCode),
      consume: async (id) => {
        const entry = this.#live(key(id));
        if (entry) {
          entry.payload.consumed = Math.floor(Date.now() / 1000);
          this.#changed();
        }
      },
      destroy: async (id) => {
        if (this.#entries.delete(key(id))) this.#changed();
      },
      revokeByGrantId: async (grantId) => {
        for (const [entryKey, entry] of this.#entries) {
          const entryModel = entryKey.slice(0, entryKey.indexOf(':'));
          if (GRANTABLE.has(entryModel) && entry.payload.grantId === grantId) {
            this.#entries.delete(entryKey);
          }
        }
        this.#changed();
      },
    };
  };

  /**
   * Ends everything of an account: its sessions, grants, codes and tokens (a deleted account).
   * The number of entries removed.
   */
  forgetAccount(sub: string): number {
    let removed = 0;
    for (const [entryKey, entry] of this.#entries) {
      if (entry.payload.accountId === sub) {
        this.#entries.delete(entryKey);
        removed += 1;
      }
    }
    if (removed > 0) this.#changed();
    return removed;
  }

  /** Writes pending changes now (on stop). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#save();
    }
    await this.#writes;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #findWhere(model: string, match: (payload: AdapterPayload) => boolean) {
    const prefix = `${model}:`;
    for (const [key, entry] of this.#entries) {
      if (key.startsWith(prefix) && match(entry.payload)) return this.#live(key)?.payload;
    }
    return undefined;
  }

  #prune(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.#entries.delete(key);
    }
  }

  #changed(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#save();
    }, SAVE_DELAY_MS);
    this.#timer.unref();
  }

  #save(): void {
    this.#writes = this.#writes
      .then(() => {
        this.#prune();
        return writeJsonAtomic(this.#file, { entries: [...this.#entries] });
      })
      .catch(this.#onWriteError);
  }
}
