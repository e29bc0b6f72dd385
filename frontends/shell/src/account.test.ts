import type { User } from '@noted/api';
import { describe, expect, it, vi } from 'vitest';
import { createAccountCheck } from './account';

const user: User = {
  userId: '7f1c2a62-9c55-4c5e-9a55-1df1a3c0f001',
  authId: 'user-1',
  email: 'ada@example.com',
  name: 'Ada',
  entitlements: {},
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('createAccountCheck', () => {
  it('calls /user once per signed-in subject', async () => {
    const me = vi.fn(async () => user);
    const check = createAccountCheck({ me });

    await Promise.all([check('user-1'), check('user-1')]);
    await check('user-1');

    expect(me).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failure', async () => {
    const me = vi
      .fn<() => Promise<User>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue(user);
    const check = createAccountCheck({ me });

    await expect(check('user-1')).rejects.toThrow('down');
    await expect(check('user-1')).resolves.toBe(user);
    expect(me).toHaveBeenCalledTimes(2);
  });
});
