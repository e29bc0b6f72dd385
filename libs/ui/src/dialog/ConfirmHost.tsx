import { useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
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
      onClose={() => pending.answer(false)}
      initialFocus={pending.danger ? cancelRef : confirmRef}
    >
      {pending.message ? <p className="ui-confirm-message">{pending.message}</p> : null}
      <div className="ui-dialog-actions">
        <button
          ref={cancelRef}
          type="button"
          className="ui-button"
          onClick={() => pending.answer(false)}
        >
          {pending.cancelLabel ?? t('confirm.cancel')}
        </button>
        <button
          ref={confirmRef}
          type="button"
          className={pending.danger ? 'ui-button ui-button-danger' : 'ui-button ui-button-primary'}
          onClick={() => pending.answer(true)}
        >
          {pending.confirmLabel ?? t('confirm.ok')}
        </button>
      </div>
    </Dialog>
  );
}

/** The confirm popup of the whole app; remotes ask through `shell.confirm`. */
export function ConfirmHost({ confirmer }: { confirmer: Confirmer }) {
  const pending = useSyncExternalStore(confirmer.subscribe, confirmer.current);
  return pending ? <ConfirmDialog key={pending.id} pending={pending} /> : null;
}
