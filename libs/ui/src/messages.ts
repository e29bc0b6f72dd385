import type { Locale, MessageLoader } from './i18n/i18n';

/** The message set of these shared components, fetched per language on first use. */
export const uiMessages: MessageLoader = (locale: Locale) =>
  import(`./messages/${locale}/ui.json`) as Promise<{ default: Record<string, unknown> }>;
