import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, IconButton } from '../button/Button';
import {
  CircleCheckIcon,
  CircleXIcon,
  InfoIcon,
  TriangleAlertIcon,
  XIcon,
  type IconComponent,
} from '../icons/icons';
import type { Toaster as ToasterStore, ToastType } from './toaster';

/** The icon of each type, as the spec names them: x-circle, check-circle, ... */
const icons: Record<ToastType, IconComponent> = {
  error: CircleXIcon,
  success: CircleCheckIcon,
  warning: TriangleAlertIcon,
  info: InfoIcon,
};

export const toastIconNames: Record<ToastType, string> = {
  error: 'x-circle',
  success: 'check-circle',
  warning: 'exclamation-triangle',
  info: 'information-circle',
};

/**
 * The toast area, fixed in the bottom corner of the viewport (above the tab bar on a phone):
 * always in the page, so screen readers hear each toast as it comes.
 */
export function ToastArea({ toaster }: { toaster: ToasterStore }) {
  const { t } = useTranslation('ui');
  const toast = useSyncExternalStore(toaster.subscribe, toaster.current);
  const Icon = toast ? icons[toast.type] : undefined;
  return (
    <div className="ui-toast-area" aria-live="polite" aria-atomic="true">
      {toast && Icon ? (
        <div
          key={toast.id}
          className={`ui-toast ui-toast-${toast.type}`}
          role={toast.type === 'error' ? 'alert' : 'status'}
          data-icon={toastIconNames[toast.type]}
        >
          <Icon className="ui-icon ui-toast-icon" aria-hidden="true" />
          <span className="visually-hidden">{t(`toast.${toast.type}`)}: </span>
          <p className="ui-toast-message">{toast.message}</p>
          {toast.action ? (
            <Button
              size="sm"
              variant="primary"
              className="ui-toast-action"
              onClick={() => {
                toast.action?.run();
                toaster.hide();
              }}
            >
              {toast.action.label}
            </Button>
          ) : null}
          <IconButton
            label={t('toast.close')}
            icon={XIcon}
            size="sm"
            className="ui-toast-close"
            onClick={toaster.hide}
          />
        </div>
      ) : null}
    </div>
  );
}
