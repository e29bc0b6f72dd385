import { uiMessages, type Locale, type MessageLoader, type Messages } from '@noted/ui';
import enUi from '@noted/ui/messages/en/ui.json';
import enLanding from './messages/en/landing.json';
import enShell from './messages/en/shell.json';
import enSidebar from './messages/en/sidebar.json';

/** English is in the first bundle, so the first page never waits for text; others load lazily. */
const englishBundled =
  (english: Messages, other: (locale: Locale) => Promise<{ default: Messages }>): MessageLoader =>
  (locale) =>
    locale === 'en' ? Promise.resolve(english) : other(locale);

/** The shell's message sets, registered at start; remotes register their own. */
export const shellMessages: Record<string, MessageLoader> = {
  ui: englishBundled(enUi, (locale) => uiMessages(locale) as Promise<{ default: Messages }>),
  shell: englishBundled(enShell, (locale) => import(`./messages/${locale}/shell.json`)),
  sidebar: englishBundled(enSidebar, (locale) => import(`./messages/${locale}/sidebar.json`)),
  landing: englishBundled(enLanding, (locale) => import(`./messages/${locale}/landing.json`)),
};
