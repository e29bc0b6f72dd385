import type { SiteLanguage } from './content/model';
import en from './messages/en.json';
import zh from './messages/zh.json';

export type MessageKey = keyof typeof en;
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

const dictionaries: Record<SiteLanguage, Record<string, string>> = { en, zh };

/**
 * The site's own small translator: its text in English and Chinese, `{name}` filled in. The
 * site's pages hydrate on their own, without the shell's i18next, so they carry their words
 * with them (a few kilobytes).
 */
export const translator =
  (lang: SiteLanguage): Translate =>
  (key, values = {}) =>
    (dictionaries[lang][key] ?? en[key]).replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in values ? String(values[name]) : whole,
    );
