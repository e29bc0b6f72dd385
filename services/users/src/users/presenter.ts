import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { User } from '@noted/api';
import { entitlementsToMessage, usersV1 } from '@noted/proto';
import type { UserRow } from './repository.js';

export const presentUser = (row: UserRow): User => ({
  userId: row.id,
  authId: row.auth_id,
  email: row.email,
  name: row.name,
  entitlements: row.entitlements,
  createdAt: row.created_at.toISOString(),
});

export const userMessage = (row: UserRow): usersV1.User =>
  create(usersV1.UserSchema, {
    userId: row.id,
    authId: row.auth_id,
    email: row.email,
    name: row.name,
    entitlements: entitlementsToMessage(row.entitlements),
    createdAt: timestampFromDate(row.created_at),
  });
