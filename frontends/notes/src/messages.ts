import { defaultLocale, isLocale, registerMessages, type MessageLoader } from '@noted/ui';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './text';

/** The notes remote's message sets, each fetched per language when a page first needs it. */
export const notesMessages = {
  note: (locale) => import(`./messages/${locale}/note.json`),
  mindlink: (locale) => import(`./messages/${locale}/mindlink.json`),
} satisfies Record<string, MessageLoader>;

export type NotesMessageSet = keyof typeof notesMessages;

type I18n = ReturnType<typeof useTranslation>['i18n'];

// react-i18next hands each component its own wrapper of the page's instance; the wrappers
// share the instance's resource store, so loads are remembered per store.
const loads = new WeakMap<object, Map<string, Promise<void> | null>>();

/**
 * The load of a set that was missing in the current locale (or English) when first asked for,
 * started once; null for a set that was there already (a test's, or one loaded by a language
 * switch, which loads every registered set first). A failed load settles too: English shows.
 */
const loadOf = (i18n: I18n, namespace: NotesMessageSet): Promise<void> | null => {
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
      : registerMessages(i18n, { [namespace]: notesMessages[namespace] });
    byKey.set(key, load);
  }
  return load;
};

/**
 * `useTranslation` for one of the remote's message sets. Like `useMessages` of @noted/ui it
 * suspends while the set is on its way, but only then: a set that is there already renders at
 * once instead of showing the nearest Suspense fallback for a moment.
 */
export const useNotesMessages = (namespace: NotesMessageSet) => {
  const translation = useTranslation(namespace);
  const load = loadOf(translation.i18n, namespace);
  // The answer for a set never changes, so a render replayed after suspending calls use() too.
  if (load) use(load);
  return translation;
};

export type Translate = ReturnType<typeof useNotesMessages>['t'];

/** What to show for a caught error: its own message, or "Something went wrong." translated. */
export const useErrorText = () => {
  const { t } = useNotesMessages('note');
  return (error: unknown) => errorMessage(error) || t('common.unknownError');
};
