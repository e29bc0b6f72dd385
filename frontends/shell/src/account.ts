import type { ApiClient, User } from '@noted/api';

/**
 * The gateway creates the user on the first authenticated request; this makes that request
 * once per signed-in subject however often a component asks.
 */
export const createAccountCheck = (api: Pick<ApiClient, 'me'>) => {
  const checks = new Map<string, Promise<User>>();
  return (sub: string): Promise<User> => {
    const existing = checks.get(sub);
    if (existing) return existing;
    const check = api.me();
    checks.set(sub, check);
    check.catch(() => checks.delete(sub));
    return check;
  };
};

export type AccountCheck = ReturnType<typeof createAccountCheck>;
