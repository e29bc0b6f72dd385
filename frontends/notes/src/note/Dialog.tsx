import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';

export interface DialogProps {
  title: string;
  onClose: () => void;
  /** Gets the focus when the dialog opens; otherwise the first control does. */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * A modal dialog: the rest of the page is inert while it is open, Escape and Close close it,
 * and the focus goes back where it was.
 */
export function Dialog({ title, onClose, initialFocus, children }: DialogProps) {
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
      className="notes-dialog"
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
      <div className="notes-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="notes-button" onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
