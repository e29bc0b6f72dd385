import { Button, Callout, CloudOffIcon, RefreshIcon, Skeleton, errorCode } from '@noted/ui';
import { useEffect, useRef } from 'react';
import { useErrorText, useNotesMessages } from './messages';
import { useOnline } from './offline/useOffline';

/**
 * What stands where something is on its way: grey shapes of its size (`blocks` cards or
 * `lines` of text), announced once as `children`.
 */
export function Loading({
  children,
  blocks = 0,
  lines = 3,
}: {
  children: string;
  blocks?: number;
  lines?: number;
}) {
  return <Skeleton label={children} blocks={blocks} lines={lines} className="notes-status" />;
}

/** The Retry of a notice that something could not be had. */
export function RetryButton({ onRetry }: { onRetry: () => void }) {
  const { t } = useNotesMessages('note');
  return (
    <Button size="sm" icon={RefreshIcon} onClick={onRetry}>
      {t('common.retry')}
    </Button>
  );
}

/**
 * Whether `error` is the server not being reached because the browser is offline. Such a
 * failure is tried again (`onRetry`) once the connection is back, instead of turning into a
 * red failure then.
 */
export const useOfflineFailure = (error: unknown, onRetry?: () => void): boolean => {
  const online = useOnline();
  const unreachable = errorCode(error) === 'UNAVAILABLE';
  const wentOffline = useRef(!online);
  const retry = useRef(onRetry);
  useEffect(() => {
    retry.current = onRetry;
  });
  useEffect(() => {
    if (!online) {
      wentOffline.current = true;
    } else if (wentOffline.current && unreachable) {
      wentOffline.current = false;
      retry.current?.();
    }
  }, [online, unreachable]);
  return !online && unreachable;
};

/** Where something needs the server and the browser is offline: said calmly, not as a failure. */
export function OfflineUnavailable({ onRetry }: { onRetry?: () => void }) {
  const { t } = useNotesMessages('note');
  return (
    <Callout
      tone="neutral"
      role="status"
      icon={CloudOffIcon}
      actions={onRetry ? <RetryButton onRetry={onRetry} /> : undefined}
    >
      {t('offline.unavailable')}
    </Callout>
  );
}

/** Why something could not be loaded (`message` given the reason), with Retry; offline, that. */
export function LoadFailed({
  message,
  error,
  onRetry,
}: {
  message: (reason: string) => string;
  error: unknown;
  onRetry: () => void;
}) {
  const errorText = useErrorText();
  if (useOfflineFailure(error, onRetry)) return <OfflineUnavailable onRetry={onRetry} />;
  return (
    <Callout tone="danger" role="alert" actions={<RetryButton onRetry={onRetry} />}>
      {message(errorText(error))}
    </Callout>
  );
}
