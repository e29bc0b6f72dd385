import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { XIcon } from '../icons/icons';

export interface ImagePreviewProps {
  /** An address the <img> can load: an object URL of a note image, or a public image URL. */
  src: string;
  /** Called once when the preview should close; the caller then stops rendering it. */
  onClose: () => void;
  /** Shown as the image's alt text and title; default "Note image" in the current language. */
  title?: string;
}

/** Marks the history entry the preview adds, so the back action closes the preview. */
const HISTORY_FLAG = 'notedImagePreview';

const isPreviewEntry = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && HISTORY_FLAG in state;

/**
 * A history.back() scheduled by a preview that closed; a preview opening before it runs takes
 * the entry over instead (React's StrictMode remounts, or one image opened right after another).
 */
let pendingBack: ReturnType<typeof setTimeout> | undefined;

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The full-screen preview of one image. Closes on a click on the backdrop, Escape, the Close
 * button, or the browser's or device's back action; a click on the image does not close it.
 */
export function ImagePreview({ src, onClose, title }: ImagePreviewProps) {
  const { t } = useTranslation('ui');
  const shownTitle = title ?? t('imagePreview.defaultTitle');
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  const [loaded, setLoaded] = useState<{ src: string; failed: boolean }>();

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    if (pendingBack !== undefined) {
      clearTimeout(pendingBack);
      pendingBack = undefined;
    } else {
      window.history.pushState({ ...window.history.state, [HISTORY_FLAG]: true }, '');
    }
    let popped = false;
    const onPopState = () => {
      popped = true;
      onCloseRef.current();
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      if (popped || !isPreviewEntry(window.history.state)) return;
      pendingBack = setTimeout(() => {
        pendingBack = undefined;
        if (isPreviewEntry(window.history.state)) window.history.back();
      }, 0);
    };
  }, []);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    closeRef.current?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      onCloseRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget) onClose();
  };

  const keepFocusInside = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const state = loaded?.src === src ? (loaded.failed ? 'failed' : 'shown') : 'loading';

  return createPortal(
    <div
      ref={dialogRef}
      className="image-preview"
      role="dialog"
      aria-modal="true"
      aria-label={t('imagePreview.label')}
      onClick={onBackdropClick}
      onKeyDown={keepFocusInside}
    >
      <button
        ref={closeRef}
        type="button"
        className="image-preview-close"
        aria-label={t('close')}
        title={t('close')}
        onClick={onClose}
      >
        <XIcon className="ui-icon" aria-hidden="true" />
      </button>
      {state === 'loading' ? (
        <p className="image-preview-status" role="status">
          {t('imagePreview.loading')}
        </p>
      ) : null}
      {state === 'failed' ? (
        <p className="image-preview-status image-preview-error" role="alert">
          {t('imagePreview.failed')}
        </p>
      ) : null}
      <img
        className="image-preview-image"
        src={src}
        alt={shownTitle}
        title={shownTitle}
        hidden={state === 'failed'}
        onLoad={() => setLoaded({ src, failed: false })}
        onError={() => setLoaded({ src, failed: true })}
      />
      {state === 'shown' ? (
        <p className="image-preview-title" aria-hidden="true">
          {shownTitle}
        </p>
      ) : null}
    </div>,
    document.body,
  );
}
