import type { Knex } from 'knex';
import type { Entitlements } from '@noted/api';

export interface UserRow {
  id: string;
  auth_id: string;
  email: string;
  name: string;
  entitlements: Entitlements;
  profile_issued_at: Date | null;
  plan: string;
  entitlements_version: string | null;
  created_at: Date;
  updated_at: Date;
}

export const usersRepository = {
  /** Inserts unless a user with this auth_id exists; undefined means it already existed. */
  insertIfAbsent: async (
    knex: Knex,
    row: Pick<UserRow, 'id' | 'auth_id' | 'email' | 'name' | 'entitlements' | 'profile_issued_at'>,
  ) => {
    const [created] = await knex<UserRow>('users')
      .insert(row)
      .onConflict('auth_id')
      .ignore()
      .returning('*');
    return created as UserRow | undefined;
  },

  findBySub: async (knex: Knex, authId: string) =>
    knex<UserRow>('users').where({ auth_id: authId }).first(),

  findById: async (knex: Knex, id: string) => knex<UserRow>('users').where({ id }).first(),

  /**
   * Stores the email and name of a token issued at `issuedAt`, unless the stored ones came
   * from a token issued at that time or later; undefined when they did. One conditional
   * update, so two gateways racing with an old and a new token cannot store the old one last.
   */
  updateProfile: async (
    knex: Knex,
    id: string,
    profile: Pick<UserRow, 'email' | 'name'>,
    issuedAt: Date | undefined,
  ) => {
    const query = knex<UserRow>('users').where({ id });
    // A token without iat cannot be ordered: it changes only a profile no dated token gave.
    if (issuedAt) {
      query.andWhere((newer) =>
        newer.whereNull('profile_issued_at').orWhere('profile_issued_at', '<', issuedAt),
      );
    } else {
      query.whereNull('profile_issued_at');
    }
    const [updated] = await query
      .update({
        ...profile,
        ...(issuedAt ? { profile_issued_at: issuedAt } : {}),
        updated_at: new Date(),
      })
      .returning('*');
    return updated as UserRow | undefined;
  },

  /**
   * Sets the user's plan and entitlements unless a change of this version or a later one was
   * already applied: one conditional update. False when it was older (or the user unknown).
   */
  applyPlan: async (
    knex: Knex,
    id: string,
    change: { plan: string; entitlements: Entitlements; version: bigint },
  ): Promise<boolean> => {
    const updated = await knex<UserRow>('users')
      .where({ id })
      .andWhere((newer) =>
        newer
          .whereNull('entitlements_version')
          .orWhere('entitlements_version', '<', change.version.toString()),
      )
      .update({
        plan: change.plan,
        entitlements: change.entitlements,
        entitlements_version: change.version.toString(),
        updated_at: new Date(),
      });
    return updated > 0;
  },
};
