import { ipKeyGenerator } from 'express-rate-limit';

export interface SignInLimitOptions {
  /** Failed sign-ins for one account within the window before the account is locked. */
  failuresPerAccount: number;
  /** Failed sign-ins from one address within the window before the address is locked. */
  failuresPerIp: number;
  /** How long a count lasts from its first failure; a lock ends with its window. */
  windowSeconds: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitOptions = {
  failuresPerAccount: 5,
  failuresPerIp: 20,
  windowSeconds: 15 * 60,
};

export interface SignInRefusal {
  /** What is locked: the account asked for, or the address asking. */
  locked: 'account' | 'ip';
  retryAfterSeconds: number;
}

interface Count {
  failures: number;
  resetAt: number;
}

/** Counts kept at most; past it, the oldest go first (a flood must not grow memory forever). */
const MAX_COUNTS = 100_000;

class FailureCounts {
  readonly #counts = new Map<string, Count>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  current(key: string, now: number): Count | undefined {
    const count = this.#counts.get(key);
    if (count && count.resetAt <= now) {
      this.#counts.delete(key);
      return undefined;
    }
    return count;
  }

  add(key: string, now: number): void {
    const count = this.current(key, now);
    if (count) {
      count.failures += 1;
      return;
    }
    if (this.#counts.size >= MAX_COUNTS) this.#prune(now);
    this.#counts.set(key, { failures: 1, resetAt: now + this.windowMs });
  }

  clear(key: string): void {
    this.#counts.delete(key);
  }

  #prune(now: number): void {
    for (const [key, count] of this.#counts) {
      if (count.resetAt <= now) this.#counts.delete(key);
    }
    for (const key of this.#counts.keys()) {
      if (this.#counts.size < MAX_COUNTS) break;
      this.#counts.delete(key);
    }
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * Failed sign-ins per account and per client address, in fixed windows: once an account or an
 * address has as many failures as its limit, every sign-in for it (right password or not) is
 * refused until the window that counted them ends. A refused attempt is not counted, so one
 * locked account does not lock the address of the person who then signs in as someone else.
 * IPv6 addresses count by /56, as one household or server gets a whole prefix.
 */
export class SignInLimits {
  readonly #accounts: FailureCounts;
  readonly #ips: FailureCounts;

  constructor(
    options: SignInLimitOptions = DEFAULT_SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    const windowMs = options.windowSeconds * 1000;
    this.#accounts = new FailureCounts(options.failuresPerAccount, windowMs);
    this.#ips = new FailureCounts(options.failuresPerIp, windowMs);
  }

  /** Why a sign-in for `email` from `ip` is refused now, if it is. */
  refusal(email: string, ip: string | undefined): SignInRefusal | undefined {
    const now = this.now();
    const locked = (counts: FailureCounts, key: string | undefined) => {
      const count = key ? counts.current(key, now) : undefined;
      return count && count.failures >= counts.limit
        ? Math.max(1, Math.ceil((count.resetAt - now) / 1000))
        : undefined;
    };
    const ipWait = locked(this.#ips, ip && ipKeyGenerator(ip));
    if (ipWait !== undefined) return { locked: 'ip', retryAfterSeconds: ipWait };
    const accountWait = locked(this.#accounts, accountKey(email));
    if (accountWait !== undefined) return { locked: 'account', retryAfterSeconds: accountWait };
    return undefined;
  }

  /** Counts a failed sign-in against the address and, when one was named, the account. */
  failed(email: string | undefined, ip: string | undefined): void {
    const now = this.now();
    if (ip) this.#ips.add(ipKeyGenerator(ip), now);
    const account = email && accountKey(email);
    if (account) this.#accounts.add(account, now);
  }

  /** The right password clears the account's count (not the address's). */
  succeeded(email: string): void {
    this.#accounts.clear(accountKey(email));
  }
}

/** What a person reads when refused: what is locked and for how long. */
export const refusalMessage = ({ locked, retryAfterSeconds }: SignInRefusal): string => {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = minutes <= 1 ? 'a minute' : `${minutes} minutes`;
  return locked === 'account'
    ? `Too many failed sign-ins for this account. Try again in ${wait}.`
    : `Too many failed sign-ins from your network. Try again in ${wait}.`;
};
