import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../button/Button';
import { XIcon, type IconComponent } from '../icons/icons';

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
  /** An icon beside the title (a confirm's warning, say). */
  icon?: IconComponent;
  /** The icon's tone. */
  tone?: 'neutral' | 'accent' | 'danger';
  /** 'sheet' slides in from the start edge (the menu drawer on a phone). */
  variant?: 'dialog' | 'sheet';
  children: ReactNode;
}

/**
 * A modal dialog: the rest of the page is inert while it is open, Escape and Close close it,
 * and the focus goes back where it was. On a phone it rises from the bottom edge.
 */
export function Dialog({
  title,
  onClose,
  initialFocus,
  className,
  hideClose = false,
  role,
  icon: Icon,
  tone = 'neutral',
  variant = 'dialog',
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

  const classes = ['ui-dialog', variant === 'sheet' ? 'ui-sheet' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <dialog
      ref={ref}
      className={classes}
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
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its box.
        if (event.target !== event.currentTarget) return;
        const box = event.currentTarget.getBoundingClientRect();
        const inside =
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom;
        if (!inside && role !== 'alertdialog') onClose();
      }}
    >
      <div className="ui-dialog-head">
        {Icon ? (
          <span className={`ui-dialog-icon ui-dialog-icon-${tone}`} aria-hidden="true">
            <Icon className="ui-icon" />
          </span>
        ) : null}
        <h2 id={titleId}>{title}</h2>
        {hideClose ? null : (
          <IconButton
            label={t('close')}
            icon={XIcon}
            size="sm"
            className="ui-dialog-close"
            onClick={onClose}
          />
        )}
      </div>
      {children}
    </dialog>
  );
}
