import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';

export interface DialogProps {
  title: string;
  onClose: () => void;
  /** Gets the focus when the dialog opens; otherwise the first control does. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Extra class names, e.g. for the dialog's width. */
  className?: string;
  /** Hides the Close button in the head, when the dialog's own buttons close it. */
  hideClose?: boolean;
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
}

/**
 * A modal dialog: the rest of the page is inert while it is open, Escape and Close close it,
 * and the focus goes back where it was.
 */
export function Dialog({
  title,
  onClose,
  initialFocus,
  className,
  hideClose = false,
  role,
  children,
}: DialogProps) {
  const { t } = useTranslation('ui');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, [initialFocus]);

  return (
    <dialog
      ref={ref}
      className={className ? `ui-dialog ${className}` : 'ui-dialog'}
      role={role}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose();
      }}
    >
      <div className="ui-dialog-head">
        <h2 id={titleId}>{title}</h2>
        {hideClose ? null : (
          <button type="button" className="ui-button" onClick={onClose}>
            {t('close')}
          </button>
        )}
      </div>
      {children}
    </dialog>
  );
}
