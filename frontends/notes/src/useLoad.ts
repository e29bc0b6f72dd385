import { useCallback, useEffect, useRef, useState } from 'react';

/** The answer for one key: the value, or why there is none. */
export type Settled<T> = { key: string; value: T } | { key: string; error: unknown };

/**
 * Loads again whenever `key` changes and keeps the answer for the latest key only; the last
 * answer stays until the next one arrives (`loading` says one is on its way).
 */
export function useLoad<T>(
  key: string,
  load: () => Promise<T>,
  onError?: (error: unknown) => void,
) {
  const [settled, setSettled] = useState<Settled<T>>();
  const latest = useRef({ load, onError });

  useEffect(() => {
    latest.current = { load, onError };
  });

  useEffect(() => {
    let active = true;
    latest.current.load().then(
      (value) => {
        if (active) setSettled({ key, value });
      },
      (error: unknown) => {
        if (!active) return;
        latest.current.onError?.(error);
        setSettled({ key, error });
      },
    );
    return () => {
      active = false;
    };
  }, [key]);

  /** Replaces the value shown, e.g. with what an action answered; the key stays. */
  const show = useCallback(
    (value: T) => setSettled((current) => ({ key: current?.key ?? key, value })),
    [key],
  );

  return { settled, loading: settled?.key !== key, show };
}
