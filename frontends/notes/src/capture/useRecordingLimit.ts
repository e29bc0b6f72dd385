import { useShell } from '@noted/ui';
import { useSyncExternalStore } from 'react';

/** What the server allows when the plan does not say (the free plan's default). */
export const DEFAULT_RECORDING_LIMIT_SECONDS = 60;

/**
 * The longest recording the user's plan takes, in seconds (0 for no limit), from this month's
 * usage the shell keeps for every remote (`GET /user/usage`, recordingTimeLimit; -1 there is
 * unlimited). Until the usage is known, the default stands.
 */
export function useRecordingLimit(): number {
  const { account } = useShell();
  const limit = useSyncExternalStore(
    account.subscribe,
    () => account.get().usage?.recordingTimeLimit,
  );
  if (limit === undefined) return DEFAULT_RECORDING_LIMIT_SECONDS;
  return limit < 0 ? 0 : limit;
}
