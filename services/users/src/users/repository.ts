import type { Knex } from 'knex';
import type { Entitlements } from '@noted/api';

export interface UserRow {
  id: string;
  auth_id: string;
  email: string;
  name: string;
  entitlements: Entitlements;
  created_at: Date;
  updated_at: Date;
}

export const usersRepository = {
  /** Inserts unless a user with this auth_id exists; undefined means it already existed. */
  insertIfAbsent: async (
    knex: Knex,
    row: Pick<UserRow, 'id' | 'auth_id' | 'email' | 'name' | 'entitlements'>,
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

  updateProfile: async (knex: Knex, id: string, profile: Pick<UserRow, 'email' | 'name'>) => {
    const [updated] = await knex<UserRow>('users')
      .where({ id })
      .update({ ...profile, updated_at: new Date() })
      .returning('*');
    return updated as UserRow | undefined;
  },
};
