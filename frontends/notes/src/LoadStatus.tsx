import type { ReactNode } from 'react';
import { errorMessage } from './text';

/** The status line while something is on its way. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="notes-status" role="status">
      {children}
    </p>
  );
}

/** Why something could not be loaded (`what` could not be loaded: reason), with Retry. */
export function LoadFailed({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <div className="notes-error" role="alert">
      <p>
        {what} could not be loaded: {errorMessage(error)}
      </p>
      <button type="button" className="notes-button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
