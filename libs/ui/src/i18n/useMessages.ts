import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLocale, isLocale, registerMessages, type MessageLoader } from './i18n';

type I18n = ReturnType<typeof useTranslation>['i18n'];

// react-i18next hands each component its own wrapper of the page's instance; the wrappers
// share the instance's resource store, so loads are remembered per store.
const loads = new WeakMap<object, Map<string, Promise<void> | null>>();

/**
 * The load of a set that was missing in the current locale (or English) when first asked for,
 * started once; null for a set that was there already (a test's, or one loaded by a language
 * switch, which loads every registered set first). A failed load settles too: English shows.
 */
const loadOf = (i18n: I18n, namespace: string, loader: MessageLoader): Promise<void> | null => {
  let byKey = loads.get(i18n.store);
  if (!byKey) {
    byKey = new Map();
    loads.set(i18n.store, byKey);
  }
  const locale = isLocale(i18n.language) ? i18n.language : defaultLocale;
  const key = `${locale}/${namespace}`;
  let load = byKey.get(key);
  if (load === undefined) {
    const needed = locale === defaultLocale ? [locale] : [locale, defaultLocale];
    load = needed.every((each) => i18n.hasResourceBundle(each, namespace))
      ? null
      : registerMessages(i18n, { [namespace]: loader });
    byKey.set(key, load);
  }
  return load;
};

/**
 * `useTranslation` for a message set that loads with its feature: suspends (inside the
 * nearest <Suspense>) while the set is on its way in the current locale, and only then; a set
 * that is there already renders at once.
 */
export const useMessages = (namespace: string, loader: MessageLoader) => {
  const translation = useTranslation(namespace);
  const load = loadOf(translation.i18n, namespace, loader);
  // The answer for a set never changes, so a render replayed after suspending calls use() too.
  if (load) use(load);
  return translation;
};
