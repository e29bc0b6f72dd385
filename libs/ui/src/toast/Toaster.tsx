import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Toaster as ToasterStore, ToastType } from './toaster';

/** Heroicons (MIT) outline paths: x-circle, check-circle, exclamation-triangle, information-circle. */
const iconPaths: Record<ToastType, string> = {
  error: 'm9.75 9.75 4.5 4.5m0-4.5-4.5 4.5M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  success: 'M9 12.75 11.25 15 15 9.75M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  warning:
    'M12 9v3.75m-9.303 3.376c-.866 1.5.217 3.374 1.948 3.374h14.71c1.73 0 2.813-1.874 1.948-3.374L13.949 3.378c-.866-1.5-3.032-1.5-3.898 0L2.697 16.126ZM12 15.75h.007v.008H12v-.008Z',
  info: 'm11.25 11.25.041-.02a.75.75 0 0 1 1.063.852l-.708 2.836a.75.75 0 0 0 1.063.853l.041-.021M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Zm-9-3.75h.008v.008H12V8.25Z',
};

export const toastIconNames: Record<ToastType, string> = {
  error: 'x-circle',
  success: 'check-circle',
  warning: 'exclamation-triangle',
  info: 'information-circle',
};

/** The toast area: always in the page, so screen readers hear each toast as it comes. */
export function ToastArea({ toaster }: { toaster: ToasterStore }) {
  const { t } = useTranslation('ui');
  const toast = useSyncExternalStore(toaster.subscribe, toaster.current);
  return (
    <div className="ui-toast-area" aria-live="polite" aria-atomic="true">
      {toast ? (
        <div
          key={toast.id}
          className={`ui-toast ui-toast-${toast.type}`}
          role={toast.type === 'error' ? 'alert' : 'status'}
          data-icon={toastIconNames[toast.type]}
        >
          <svg
            className="ui-toast-icon"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            aria-hidden="true"
          >
            <path strokeLinecap="round" strokeLinejoin="round" d={iconPaths[toast.type]} />
          </svg>
          <span className="visually-hidden">{t(`toast.${toast.type}`)}: </span>
          <p className="ui-toast-message">{toast.message}</p>
          {toast.action ? (
            <button
              type="button"
              className="ui-button ui-button-primary"
              onClick={() => {
                toast.action?.run();
                toaster.hide();
              }}
            >
              {toast.action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="ui-button ui-button-quiet"
            onClick={toaster.hide}
            aria-label={t('toast.close')}
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
