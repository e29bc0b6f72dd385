import {
  Button,
  Callout,
  Dialog,
  TrashIcon,
  TriangleAlertIcon,
  errorCode,
  errorMessage,
} from '@noted/ui';
import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { log } from '../log';

/** The same email, as the server compares them: case and spaces around it ignored. */
const sameEmail = (typed: string, email: string) =>
  typed.trim().toLowerCase() === email.trim().toLowerCase();

export interface DeleteAccountProps {
  /** The signed-in account's email, which the user types to confirm. */
  email: string;
  /** Deletes the account (DELETE /user with the typed email). */
  remove: (confirm: string) => Promise<void>;
  /** Runs once the account is gone: signing out. */
  onDeleted: () => void;
}

function DeleteAccountDialog({
  email,
  remove,
  onDeleted,
  onClose,
}: DeleteAccountProps & { onClose: () => void }) {
  const { t } = useTranslation('shell');
  const id = useId();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const matches = sameEmail(typed, email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await remove(typed.trim());
      onDeleted();
    } catch (failure) {
      log.error('Deleting the account failed.', failure);
      setError(
        errorCode(failure) === 'CONFIRMATION_MISMATCH'
          ? t('deleteAccount.mismatch')
          : t('deleteAccount.failed', {
              reason: errorMessage(failure) || t('deleteAccount.unknown'),
            }),
      );
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t('deleteAccount.dialogTitle')}
      onClose={busy ? () => undefined : onClose}
      icon={TriangleAlertIcon}
      tone="danger"
      role="alertdialog"
      className="delete-account-dialog"
    >
      <form className="delete-account-form" noValidate onSubmit={(event) => void submit(event)}>
        <p>{t('deleteAccount.consequences')}</p>
        <div className="ui-field">
          <label className="ui-label" htmlFor={`${id}-email`}>
            <Trans
              t={t}
              i18nKey="deleteAccount.typeEmail"
              values={{ email }}
              components={{ strong: <strong /> }}
            />
          </label>
          <input
            id={`${id}-email`}
            className="ui-input"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            disabled={busy}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              setTyped(event.target.value);
              setError(undefined);
            }}
          />
        </div>
        {error ? (
          <Callout tone="danger" role="alert">
            {error}
          </Callout>
        ) : null}
        <div className="ui-dialog-actions">
          <Button onClick={onClose} disabled={busy}>
            {t('deleteAccount.cancel')}
          </Button>
          <Button
            type="submit"
            variant="danger"
            icon={TrashIcon}
            loading={busy}
            disabled={!matches || busy}
          >
            {t('deleteAccount.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Settings' danger zone: deleting the account, after typing its email. */
export function DeleteAccount(props: DeleteAccountProps) {
  const { t } = useTranslation('shell');
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="settings-danger" aria-labelledby={id}>
      <h3 id={id}>{t('deleteAccount.title')}</h3>
      <p>{t('deleteAccount.description')}</p>
      <div>
        <Button variant="danger" icon={TrashIcon} onClick={() => setOpen(true)}>
          {t('deleteAccount.open')}
        </Button>
      </div>
      {open ? <DeleteAccountDialog {...props} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}
