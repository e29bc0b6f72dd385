import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Entitlements, User } from '@noted/api';
import { usersV1 } from '@noted/proto';
import type { UserRow } from './repository.js';

export const presentUser = (row: UserRow): User => ({
  userId: row.id,
  authId: row.auth_id,
  email: row.email,
  name: row.name,
  entitlements: row.entitlements,
  createdAt: row.created_at.toISOString(),
});

const entitlementMessage = (value: boolean | number): usersV1.Entitlement =>
  create(usersV1.EntitlementSchema, {
    value:
      typeof value === 'boolean'
        ? { case: 'enabled', value }
        : { case: 'limit', value: BigInt(Math.trunc(value)) },
  });

export const userMessage = (row: UserRow): usersV1.User =>
  create(usersV1.UserSchema, {
    userId: row.id,
    authId: row.auth_id,
    email: row.email,
    name: row.name,
    entitlements: Object.fromEntries(
      Object.entries(row.entitlements).map(([key, value]) => [key, entitlementMessage(value)]),
    ),
    createdAt: timestampFromDate(row.created_at),
  });

export const entitlementsFromMessage = (
  entitlements: Record<string, usersV1.Entitlement>,
): Entitlements =>
  Object.fromEntries(
    Object.entries(entitlements).flatMap(([key, { value }]): [string, boolean | number][] => {
      if (value.case === 'enabled') return [[key, value.value]];
      if (value.case === 'limit') return [[key, Number(value.value)]];
      return [];
    }),
  );
