import type { i18n as I18n } from 'i18next';
import { use, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { originalOf, registerMessages, type MessageLoader } from './i18n';

const pending = new WeakMap<I18n, Map<string, Promise<void>>>();

const registration = (wrapped: I18n, namespace: string, loader: MessageLoader, locale: string) => {
  const i18n = originalOf(wrapped);
  let byKey = pending.get(i18n);
  if (!byKey) {
    byKey = new Map();
    pending.set(i18n, byKey);
  }
  const key = `${locale}/${namespace}`;
  let promise = byKey.get(key);
  if (!promise) {
    promise = registerMessages(i18n, { [namespace]: loader });
    byKey.set(key, promise);
  }
  return promise;
};

/**
 * `useTranslation` for a message set that loads with its feature: suspends (inside the
 * nearest <Suspense>) until the set is there in the current locale, then renders with it.
 */
export const useMessages = (namespace: string, loader: MessageLoader) => {
  const translation = useTranslation(namespace);
  const { i18n } = translation;
  const locale = i18n.language;
  const promise = useMemo(
    () => registration(i18n, namespace, loader, locale),
    [i18n, namespace, loader, locale],
  );
  use(promise);
  return translation;
};
