import type { LiveMessage } from '@noted/api';
import { useEffect, useRef } from 'react';
import { useShell, type LiveStatus, type ShellLive } from './shell';

/** A ShellLive whose messages and status are given by its owner (the shell's connection, a test). */
export interface LiveHub extends ShellLive {
  emit: (message: LiveMessage) => void;
  setStatus: (status: LiveStatus) => void;
}

export const createLiveHub = (log?: { error: (message: string, error: unknown) => void }) => {
  const listeners = new Set<(message: LiveMessage) => void>();
  const statusListeners = new Set<() => void>();
  let status: LiveStatus = 'off';
  const hub: LiveHub = {
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    status: () => status,
    onStatus: (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    emit: (message) => {
      for (const listener of [...listeners]) {
        // One listener's failure must not keep the message from the others.
        try {
          listener(message);
        } catch (error) {
          log?.error(`A listener of the live ${message.type} message failed.`, error);
        }
      }
    },
    setStatus: (next) => {
      if (next === status) return;
      status = next;
      for (const listener of [...statusListeners]) listener();
    },
  };
  return hub;
};

/** Calls `handler` with every live message while the component is mounted (the latest handler). */
export const useLiveMessages = (handler: (message: LiveMessage) => void) => {
  const { live } = useShell();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => live.subscribe((message) => latest.current(message)), [live]);
};

/**
 * Calls `onReconnect` when the live connection opens again after a drop while the component is
 * mounted: what was pushed meanwhile was missed, so what the component shows is read again.
 */
export const useLiveReconnect = (onReconnect: () => void) => {
  const { live } = useShell();
  const latest = useRef(onReconnect);
  useEffect(() => {
    latest.current = onReconnect;
  });
  useEffect(() => {
    let dropped = false;
    return live.onStatus(() => {
      const status = live.status();
      if (status === 'waiting') dropped = true;
      else if (status === 'open' && dropped) {
        dropped = false;
        latest.current();
      }
    });
  }, [live]);
};
