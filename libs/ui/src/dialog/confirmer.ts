export interface ConfirmOptions {
  title: string;
  message?: string;
  /** The confirming button's text; default "OK" in the current language. */
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action: the button is red and the focus starts on Cancel. */
  danger?: boolean;
}

export interface PendingConfirm extends ConfirmOptions {
  id: number;
  answer: (confirmed: boolean) => void;
}

export interface Confirmer {
  /** Resolves true when confirmed, false when cancelled, closed or replaced by another. */
  confirm: (options: ConfirmOptions) => Promise<boolean>;
  current: () => PendingConfirm | undefined;
  subscribe: (listener: () => void) => () => void;
}

/** The confirm popup's state: one question at a time; a new one cancels the one open. */
export const createConfirmer = (): Confirmer => {
  let open: PendingConfirm | undefined;
  let sequence = 0;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  const confirm = (options: ConfirmOptions) =>
    new Promise<boolean>((resolve) => {
      open?.answer(false);
      sequence += 1;
      const id = sequence;
      open = {
        ...options,
        id,
        answer: (confirmed) => {
          if (open?.id === id) {
            open = undefined;
            emit();
          }
          resolve(confirmed);
        },
      };
      emit();
    });

  return {
    confirm,
    current: () => open,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
