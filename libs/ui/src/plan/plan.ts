import { entitlementNames, hasFeature, type Entitlements } from '@noted/api';
import { useSyncExternalStore } from 'react';
import { useShell, type AccountState } from '../shell';

/** The signed-in user's account as the shell keeps it (plan, usage), rendered again on a change. */
export const useAccountState = (): AccountState => {
  const { account } = useShell();
  return useSyncExternalStore(account.subscribe, account.get);
};

type PlanKnown = Pick<AccountState, 'subscription' | 'subscriptionError'>;

/**
 * Whether this server is known to take no payments: the plan's status said so. Not when the
 * status could not be had (the free plan that stands in then says nothing about the server).
 * Nothing can be bought then, so nothing offers an upgrade.
 */
export const paymentsDisabledIn = ({ subscription, subscriptionError }: PlanKnown): boolean =>
  subscription?.paymentsEnabled === false && !subscriptionError;

/**
 * Whether the plan is known to leave out a feature (its entitlement is not exactly `true`).
 * A plan not known (signed out, its status not loaded or failed) leaves out nothing here: the
 * server decides when the feature is used.
 */
export const planLacks = ({ subscription }: Pick<AccountState, 'subscription'>, name: string) => {
  const entitlements = subscription?.entitlements;
  return entitlements !== null && entitlements !== undefined && !hasFeature(entitlements, name);
};

/** A limit a plan has: notes a month, the longest recording, or a feature it leaves out. */
export type PlanLimit =
  | { kind: 'notes'; perMonth: number }
  | { kind: 'recording'; seconds: number }
  | { kind: 'without'; feature: 'ai' | 'markdown' | 'pdf' | 'image' };

const limitOf = (entitlements: Entitlements, name: string) => {
  const limit = entitlements[name];
  return typeof limit === 'number' && limit >= 0 ? limit : undefined;
};

const e = entitlementNames;
const features = [
  ['ai', e.aiAssist],
  ['markdown', e.exportMarkdown],
  ['pdf', e.exportPdf],
  ['image', e.exportImage],
] as const;

/**
 * What a plan holds back, in the order it is told: on a server without payments these are the
 * limits whoever runs it set (none by default: every feature, no monthly limit).
 */
export const planLimitsOf = (entitlements: Entitlements | null | undefined): PlanLimit[] => {
  if (!entitlements) return [];
  const notes = limitOf(entitlements, e.notesPerMonth);
  const recording = limitOf(entitlements, e.recordingTimeLimit);
  return [
    ...(notes === undefined ? [] : [{ kind: 'notes', perMonth: notes } as const]),
    ...(recording === undefined ? [] : [{ kind: 'recording', seconds: recording } as const]),
    ...features
      .filter(([, name]) => !hasFeature(entitlements, name))
      .map(([feature]) => ({ kind: 'without', feature }) as const),
  ];
};
