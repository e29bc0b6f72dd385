/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { defaultLocale, locales, type Messages } from './i18n';

// Every message set of every frontend and shared package: path -> messages.
const files = import.meta.glob<Messages>(
  ['/frontends/*/src/messages/*/*.json', '/libs/*/src/messages/*/*.json'],
  { eager: true, import: 'default' },
);

interface MessageFile {
  /** The folder and the set's name, e.g. `/frontends/notes/src/messages note`. */
  set: string;
  locale: string;
  messages: Messages;
}

const parsed: MessageFile[] = Object.entries(files).map(([path, messages]) => {
  const match = /^(.*)\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) throw new Error(`Unexpected message file ${path}`);
  const [, folder, locale = '', name] = match;
  return { set: `${folder} ${name}`, locale, messages };
});

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** Every text of a set by its key, nested keys joined with dots as i18next reads them. */
const textsOf = (messages: Messages, prefix = ''): Map<string, string> =>
  new Map(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null
        ? [...textsOf(value as Messages, `${prefix}${key}.`)]
        : [[`${prefix}${key}`, String(value)] as const],
    ),
  );

/** The keys a locale needs for the English ones: each plural in the forms its grammar has. */
const keysNeeded = (english: Iterable<string>, locale: string): string[] => {
  const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const keys = [...english].flatMap((key) => {
    const base = key.replace(pluralSuffix, '');
    return base === key ? [key] : forms.map((form) => `${base}_${form}`);
  });
  return [...new Set(keys)].sort();
};

/** The {{values}} and <tags> a text fills in, which every translation of it must keep. */
const placeholdersOf = (text: string) =>
  [...new Set(text.match(/\{\{\s*\w+\s*\}\}|<\/?\w+\s*\/?>/g) ?? [])]
    .map((found) => found.replace(/\s+/g, ''))
    .sort();

const translations = parsed.filter((file) => file.locale !== defaultLocale);
const englishSets = parsed.filter((file) => file.locale === defaultLocale);

describe('message sets', () => {
  it('are found for the ui package, the shell and the notes and billing remotes', () => {
    const sets = englishSets.map((file) => file.set);
    expect(sets).toEqual(
      expect.arrayContaining([
        '/libs/ui/src/messages ui',
        '/frontends/shell/src/messages shell',
        '/frontends/shell/src/messages sidebar',
        '/frontends/shell/src/messages landing',
        '/frontends/notes/src/messages note',
        '/frontends/notes/src/messages mindlink',
        '/frontends/notes/src/messages ai',
        '/frontends/billing/src/messages billing',
      ]),
    );
  });

  it('exist in every language for every English set, and in no other', () => {
    const english = englishSets.map((file) => file.set).sort();
    for (const locale of locales) {
      const sets = parsed.filter((file) => file.locale === locale).map((file) => file.set);
      expect(sets.sort(), locale).toEqual(english);
    }
  });

  it.each(englishSets.flatMap((english) => translations.filter((t) => t.set === english.set)))(
    'has in $locale the keys of English, with the same values filled in: $set',
    ({ set, locale, messages }) => {
      const english = textsOf(englishSets.find((file) => file.set === set)?.messages ?? {});
      const translated = textsOf(messages);
      expect([...translated.keys()].sort()).toEqual(keysNeeded(english.keys(), locale));
      for (const [key, text] of translated) {
        const original = english.get(key) ?? english.get(key.replace(pluralSuffix, '_other'));
        expect(placeholdersOf(text), `${locale} ${key}`).toEqual(placeholdersOf(original ?? ''));
      }
    },
  );

  it('have every plural in English in the forms English has', () => {
    for (const { set, messages } of englishSets) {
      const keys = [...textsOf(messages).keys()];
      expect(keys.sort(), set).toEqual(keysNeeded(keys, defaultLocale));
    }
  });
});
