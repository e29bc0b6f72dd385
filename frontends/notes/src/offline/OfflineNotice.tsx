import { Button, Callout, CloudUploadIcon, SendIcon, useShell } from '@noted/ui';
import { Link } from '@noted/router';
import { useNotesMessages } from '../messages';
import { useOnline, usePending } from './useOffline';

/**
 * Above the list: that the notes shown are the device's copy while offline, how many changes
 * wait to be sent (with a way to send them now once online), and the notes whose changes wait
 * for the user's choice, each a link to it.
 */
export function OfflineNotice() {
  const { t } = useNotesMessages('note');
  const { offline } = useShell();
  const online = useOnline();
  const pending = usePending();
  const held = pending.filter(
    (change) => change.state === 'conflict' || change.state === 'refused',
  );
  const waiting = pending.length - held.length;
  const conflicts = held.filter((change) => change.state === 'conflict').length;
  const refused = held.length - conflicts;
  if (online && pending.length === 0) return null;
  return (
    <div className="notes-offline">
      {!online || waiting > 0 ? (
        <Callout
          tone="info"
          role="status"
          actions={
            online && waiting > 0 ? (
              <Button size="sm" icon={SendIcon} onClick={() => void offline.sendNow()}>
                {t('offline.sendNow')}
              </Button>
            ) : undefined
          }
        >
          {online ? null : t('offline.offline')}
          {online || waiting === 0 ? null : ' '}
          {waiting > 0 ? t('offline.waiting', { count: waiting }) : null}
        </Callout>
      ) : null}
      {held.length > 0 ? (
        <Callout tone="warning" role="alert">
          <p>
            {conflicts > 0 ? t('offline.conflicts', { count: conflicts }) : null}
            {conflicts > 0 && refused > 0 ? ' ' : null}
            {refused > 0 ? t('offline.refused', { count: refused }) : null}
          </p>
          <ul className="notes-offline-held">
            {held.map((change) => (
              <li key={change.noteId}>
                <Link to={`/notes/${change.noteId}`}>{change.title || t('common.untitled')}</Link>
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
    </div>
  );
}

/** On a note's card: that its changes have not reached the server, and why. */
export function PendingBadge({ noteId }: { noteId: string }) {
  const { t } = useNotesMessages('note');
  const change = usePending().find((pending) => pending.noteId === noteId);
  if (!change) return null;
  const label = {
    waiting: t('offline.badgeWaiting'),
    sending: t('offline.badgeSending'),
    conflict: t('offline.badgeConflict'),
    refused: t('offline.badgeRefused'),
  }[change.state];
  const held = change.state === 'conflict' || change.state === 'refused';
  return (
    <span className={held ? 'ui-badge ui-badge-warning' : 'ui-badge'}>
      {held ? null : <CloudUploadIcon className="ui-icon" aria-hidden="true" />}
      {label}
    </span>
  );
}
