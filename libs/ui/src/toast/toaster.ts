/** The toast types the spec allows; anything else is refused. */
export const toastTypes = ['error', 'success', 'warning', 'info'] as const;
export type ToastType = (typeof toastTypes)[number];

export const defaultToastDurationMs = 3000;
/** A toast shown while another is visible replaces it after this gap. */
export const toastReplaceGapMs = 100;

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastOptions {
  /** Default 'error'. */
  type?: ToastType;
  /** Milliseconds until it hides itself; 0 keeps it until closed. Default 3000. */
  duration?: number;
  /** One button beside the message, e.g. "Upgrade"; pressing it also closes the toast. */
  action?: ToastAction;
}

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  duration: number;
  action?: ToastAction;
}

export interface Toaster {
  show: (message: string, options?: ToastOptions) => void;
  hide: () => void;
  /** The visible toast, or undefined; for useSyncExternalStore. */
  current: () => Toast | undefined;
  subscribe: (listener: () => void) => () => void;
}

export const isToastType = (value: unknown): value is ToastType =>
  typeof value === 'string' && (toastTypes as readonly string[]).includes(value);

/**
 * One toast at a time: showing one while another is visible hides the old one and shows the
 * new one 100 ms later; a duration above 0 hides it after that time, 0 keeps it until closed.
 */
export const createToaster = (): Toaster => {
  let visible: Toast | undefined;
  let sequence = 0;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let showTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const clearTimers = () => {
    clearTimeout(hideTimer);
    clearTimeout(showTimer);
    hideTimer = undefined;
    showTimer = undefined;
  };

  const hide = () => {
    clearTimers();
    if (!visible) return;
    visible = undefined;
    emit();
  };

  const display = (toast: Toast) => {
    visible = toast;
    emit();
    if (toast.duration > 0) hideTimer = setTimeout(hide, toast.duration);
  };

  const show = (message: string, options: ToastOptions = {}) => {
    const type = options.type ?? 'error';
    if (!isToastType(type))
      throw new TypeError(`Toast type must be one of ${toastTypes.join(', ')}`);
    const duration = options.duration ?? defaultToastDurationMs;
    if (!Number.isFinite(duration) || duration < 0) {
      throw new RangeError('Toast duration must be 0 or more milliseconds');
    }
    sequence += 1;
    const toast: Toast = { id: sequence, message, type, duration, action: options.action };
    const replacing = visible !== undefined || showTimer !== undefined;
    hide();
    if (replacing) showTimer = setTimeout(() => display(toast), toastReplaceGapMs);
    else display(toast);
  };

  return {
    show,
    hide,
    current: () => visible,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
