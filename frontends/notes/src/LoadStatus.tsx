import type { ReactNode } from 'react';
import { useErrorText, useNotesMessages } from './messages';

/** The status line while something is on its way. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p className="notes-status" role="status">
      {children}
    </p>
  );
}

/** Why something could not be loaded (`message` given the reason), with Retry. */
export function LoadFailed({
  message,
  error,
  onRetry,
}: {
  message: (reason: string) => string;
  error: unknown;
  onRetry: () => void;
}) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  return (
    <div className="notes-error" role="alert">
      <p>{message(errorText(error))}</p>
      <button type="button" className="notes-button" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
