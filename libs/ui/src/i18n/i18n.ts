import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createLog } from '../log';
import { defaultLocale, isLocale, locales, rememberLocale, type Locale } from './locale';

// The locale itself lives apart from i18next, for pages without it (the site's).
export * from './locale';

const log = createLog('i18n');

export type Messages = Record<string, unknown>;
/** Loads one message set in one locale, e.g. `(locale) => import(`./messages/${locale}/note.json`)`. */
export type MessageLoader = (locale: Locale) => Promise<Messages | { default: Messages }>;

interface Registry {
  loaders: Map<string, MessageLoader>;
  loads: Map<string, Promise<void>>;
}

const registries = new WeakMap<I18n, Registry>();

/**
 * react-i18next hands components a wrapper of the instance (a new one per language, so memos
 * notice the change); everything kept per instance is kept for the instance it wraps.
 */
export const originalOf = (i18n: I18n): I18n =>
  (i18n as I18n & { __original?: I18n }).__original ?? i18n;

const registryOf = (wrapped: I18n): Registry => {
  const i18n = originalOf(wrapped);
  let registry = registries.get(i18n);
  if (!registry) {
    registry = { loaders: new Map(), loads: new Map() };
    registries.set(i18n, registry);
  }
  return registry;
};

/**
 * Loads one message set in one locale into the instance, once. A failure is logged and
 * settles anyway: English (the fallback) then shows where the translation is missing.
 */
export const loadMessageSet = (wrapped: I18n, namespace: string, locale: Locale): Promise<void> => {
  const i18n = originalOf(wrapped);
  const registry = registryOf(i18n);
  const key = `${locale}/${namespace}`;
  const existing = registry.loads.get(key);
  if (existing) return existing;
  const loader = registry.loaders.get(namespace);
  if (!loader) return Promise.reject(new Error(`No messages are registered as "${namespace}"`));
  const load = loader(locale).then(
    (loaded) => {
      const messages =
        'default' in loaded && typeof loaded.default === 'object' ? loaded.default : loaded;
      i18n.addResourceBundle(locale, namespace, messages as Messages, true, true);
    },
    (error: unknown) => {
      log.error(`The ${locale} messages of "${namespace}" could not be loaded.`, error);
      registry.loads.delete(key);
    },
  );
  registry.loads.set(key, load);
  return load;
};

/** The locales a message set must be present in to show the current locale with its fallback. */
const neededLocales = (i18n: I18n): Locale[] => {
  const current = isLocale(i18n.language) ? i18n.language : defaultLocale;
  return current === defaultLocale ? [defaultLocale] : [current, defaultLocale];
};

/**
 * Makes message sets known to the instance and loads them in the current locale (and English).
 * Each frontend registers its own sets when its code first runs: messages travel with features.
 */
export const registerMessages = (
  i18n: I18n,
  sets: Record<string, MessageLoader>,
): Promise<void> => {
  const { loaders } = registryOf(i18n);
  for (const [namespace, loader] of Object.entries(sets)) {
    if (!loaders.has(namespace)) loaders.set(namespace, loader);
  }
  return Promise.all(
    Object.keys(sets).flatMap((namespace) =>
      neededLocales(i18n).map((locale) => loadMessageSet(i18n, namespace, locale)),
    ),
  ).then(() => undefined);
};

/** Switches every registered message set to `locale`, saves the choice and sets <html lang>. */
export const changeLocale = async (
  wrapped: I18n,
  locale: Locale,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): Promise<void> => {
  const i18n = originalOf(wrapped);
  const { loaders } = registryOf(i18n);
  await Promise.all(
    [...loaders.keys()].map((namespace) => loadMessageSet(i18n, namespace, locale)),
  );
  await i18n.changeLanguage(locale);
  rememberLocale(locale, storage);
  if (typeof document !== 'undefined')
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
};

/**
 * One i18next instance for the whole page. Message sets come in later through
 * registerMessages; missing keys fall back to English.
 */
export const createI18n = async (locale: Locale = defaultLocale): Promise<I18n> => {
  const i18n = createInstance();
  i18n.use(initReactI18next);
  await i18n.init({
    lng: locale,
    fallbackLng: defaultLocale,
    supportedLngs: [...locales],
    ns: [],
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
  });
  if (typeof document !== 'undefined')
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
  return i18n;
};
