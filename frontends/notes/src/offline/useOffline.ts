import { useShell, type PendingChange } from '@noted/ui';
import { useSyncExternalStore } from 'react';

/** Whether the browser has a network, as the shell's device copy last heard. */
export const useOnline = (): boolean => {
  const { offline } = useShell();
  return useSyncExternalStore(offline.subscribe, offline.online);
};

/** The changes made on this device that wait to be sent, in the order they will go. */
export const usePending = (): readonly PendingChange[] => {
  const { offline } = useShell();
  return useSyncExternalStore(offline.subscribe, offline.pending);
};

/** The change waiting for one note, if any. */
export const usePendingFor = (noteId: string): PendingChange | undefined =>
  usePending().find((change) => change.noteId === noteId);
