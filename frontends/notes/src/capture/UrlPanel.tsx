import { Button } from '@noted/ui';
import { useId, useState } from 'react';
import type { FormEvent, RefObject } from 'react';
import { useNotesMessages } from '../messages';
import { isWebAddress } from './format';
import type { PanelProps } from './panel';

/** An address for the server to fetch: a web page, or an audio file. */
export function UrlPanel({
  which,
  api,
  busy,
  onCreate,
  onCancel,
  onEdit,
  status,
  focusRef,
  hint,
}: PanelProps & { which: 'link' | 'audioUrl'; hint: string }) {
  const { t } = useNotesMessages('capture');
  const id = useId();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    if (busy) return;
    const address = value.trim();
    if (!isWebAddress(address)) {
      setInvalid(true);
      focusRef.current?.focus();
      return;
    }
    onCreate('sending', () =>
      which === 'link' ? api.capture.link(address) : api.capture.audioUrl(address),
    );
  };

  const errorId = `${id}-error`;
  return (
    <form className="capture-form" noValidate onSubmit={submit}>
      <div className="ui-field">
        <label className="ui-label" htmlFor={`${id}-url`}>
          {which === 'link' ? t('link.label') : t('audio.urlLabel')}
        </label>
        <input
          ref={focusRef as RefObject<HTMLInputElement | null>}
          id={`${id}-url`}
          className="ui-input"
          type="url"
          inputMode="url"
          autoComplete="url"
          required
          maxLength={2048}
          placeholder={t('url.placeholder')}
          value={value}
          disabled={busy}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[`${id}-hint`, invalid ? errorId : ''].filter(Boolean).join(' ')}
          onChange={(event) => {
            setValue(event.target.value);
            setInvalid(false);
            onEdit();
          }}
        />
        <p id={`${id}-hint`} className="ui-hint">
          {hint}
        </p>
        {invalid ? (
          <p id={errorId} className="ui-field-error" role="alert">
            {t('url.invalid')}
          </p>
        ) : null}
      </div>
      {status}
      <div className="ui-dialog-actions">
        <Button onClick={onCancel} disabled={busy}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={busy}>
          {t('dialog.create')}
        </Button>
      </div>
    </form>
  );
}
