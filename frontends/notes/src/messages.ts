import { useMessages, type MessageLoader } from '@noted/ui';
import { errorMessage } from './text';

/** The notes remote's message sets, each fetched per language when a page first needs it. */
export const notesMessages = {
  note: (locale) => import(`./messages/${locale}/note.json`),
  mindlink: (locale) => import(`./messages/${locale}/mindlink.json`),
  ai: (locale) => import(`./messages/${locale}/ai.json`),
  capture: (locale) => import(`./messages/${locale}/capture.json`),
  data: (locale) => import(`./messages/${locale}/data.json`),
} satisfies Record<string, MessageLoader>;

export type NotesMessageSet = keyof typeof notesMessages;

/** `useMessages` of @noted/ui for one of the remote's message sets. */
export const useNotesMessages = (namespace: NotesMessageSet) =>
  useMessages(namespace, notesMessages[namespace]);

export type Translate = ReturnType<typeof useNotesMessages>['t'];

/** What to show for a caught error: its own message, or "Something went wrong." translated. */
export const useErrorText = () => {
  const { t } = useNotesMessages('note');
  return (error: unknown) => errorMessage(error) || t('common.unknownError');
};
