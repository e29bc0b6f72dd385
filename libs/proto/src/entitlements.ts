import { create } from '@bufbuild/protobuf';
import { EntitlementSchema, type Entitlement } from './gen/noted/users/v1/users_pb.js';

/** Entitlements as the API and the databases hold them: a feature's flag or numeric limit. */
export type EntitlementValues = Record<string, boolean | number>;

/** Entitlements as messages carry them (`map<string, noted.users.v1.Entitlement>`). */
export const entitlementsToMessage = (entitlements: EntitlementValues) =>
  Object.fromEntries(
    Object.entries(entitlements).map(([key, value]): [string, Entitlement] => [
      key,
      create(EntitlementSchema, {
        value:
          typeof value === 'boolean'
            ? { case: 'enabled', value }
            : { case: 'limit', value: BigInt(Math.trunc(value)) },
      }),
    ]),
  );

export const entitlementsFromMessage = (
  entitlements: Record<string, Entitlement>,
): EntitlementValues =>
  Object.fromEntries(
    Object.entries(entitlements).flatMap(([key, { value }]): [string, boolean | number][] => {
      if (value.case === 'enabled') return [[key, value.value]];
      if (value.case === 'limit') return [[key, Number(value.value)]];
      return [];
    }),
  );
