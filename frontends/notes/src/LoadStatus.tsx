import { Button, Callout, RefreshIcon, Skeleton } from '@noted/ui';
import { useErrorText, useNotesMessages } from './messages';
import { OfflineUnavailable, useOfflineFailure } from './offline/OfflineNotice';

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
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  if (useOfflineFailure(error)) return <OfflineUnavailable onRetry={onRetry} />;
  return (
    <Callout
      tone="danger"
      role="alert"
      actions={
        <Button size="sm" icon={RefreshIcon} onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {message(errorText(error))}
    </Callout>
  );
}
