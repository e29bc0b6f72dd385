import { useEffect, useRef, type RefObject } from 'react';

/** Whether a key press belongs to a field being typed in (or a modifier combination). */
export const isTyping = (event: KeyboardEvent): boolean => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  if (target.isContentEditable) return true;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
};

/** The title links of the notes in the list, in order. */
const noteLinks = (list: HTMLElement) => [
  ...list.querySelectorAll<HTMLAnchorElement>('.note-card .note-title-link'),
];

export interface ListShortcuts {
  list: RefObject<HTMLElement | null>;
  onSearch: () => void;
  onCompose: () => void;
  onHelp: () => void;
}

/**
 * The list's keys, as in Gmail, Linear and Memos: `/` searches, `n` writes a new note,
 * `j`/`k` move to the next/previous note (Enter opens it), `?` shows the keys. Ignored while
 * typing in a field or with a dialog open.
 */
export function useListShortcuts({ list, onSearch, onCompose, onHelp }: ListShortcuts) {
  const handlers = useRef({ onSearch, onCompose, onHelp });
  useEffect(() => {
    handlers.current = { onSearch, onCompose, onHelp };
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event) || document.querySelector('dialog[open], [role="dialog"]')) return;
      const move = (step: number) => {
        const element = list.current;
        if (!element) return;
        const links = noteLinks(element);
        if (links.length === 0) return;
        const at = links.findIndex((link) => link === document.activeElement);
        const next = links[at === -1 ? (step > 0 ? 0 : links.length - 1) : at + step];
        if (!next) return;
        next.focus();
        next.closest('.note-card')?.scrollIntoView({ block: 'nearest' });
      };
      switch (event.key) {
        case '/':
          event.preventDefault();
          handlers.current.onSearch();
          break;
        case 'n':
          event.preventDefault();
          handlers.current.onCompose();
          break;
        case 'j':
          event.preventDefault();
          move(1);
          break;
        case 'k':
          event.preventDefault();
          move(-1);
          break;
        case '?':
          event.preventDefault();
          handlers.current.onHelp();
          break;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [list]);
}
