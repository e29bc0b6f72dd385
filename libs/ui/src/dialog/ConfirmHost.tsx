import { useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../button/Button';
import { TriangleAlertIcon } from '../icons/icons';
import type { Confirmer, PendingConfirm } from './confirmer';
import { Dialog } from './Dialog';

function ConfirmDialog({ pending }: { pending: PendingConfirm }) {
  const { t } = useTranslation('ui');
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={pending.title}
      role="alertdialog"
      className="ui-confirm"
      hideClose
      icon={pending.danger ? TriangleAlertIcon : undefined}
      tone="danger"
      onClose={() => pending.answer(false)}
      initialFocus={pending.danger ? cancelRef : confirmRef}
    >
      {pending.message ? <p className="ui-confirm-message">{pending.message}</p> : null}
      <div className="ui-dialog-actions">
        <Button ref={cancelRef} onClick={() => pending.answer(false)}>
          {pending.cancelLabel ?? t('confirm.cancel')}
        </Button>
        <Button
          ref={confirmRef}
          variant={pending.danger ? 'danger' : 'primary'}
          onClick={() => pending.answer(true)}
        >
          {pending.confirmLabel ?? t('confirm.ok')}
        </Button>
      </div>
    </Dialog>
  );
}

/** The confirm popup of the whole app; remotes ask through `shell.confirm`. */
export function ConfirmHost({ confirmer }: { confirmer: Confirmer }) {
  const pending = useSyncExternalStore(confirmer.subscribe, confirmer.current);
  return pending ? <ConfirmDialog key={pending.id} pending={pending} /> : null;
}
