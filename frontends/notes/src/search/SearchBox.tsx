import { SearchInput } from '@noted/ui';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, Ref } from 'react';
import { useNotesMessages } from '../messages';

export const SEARCH_DELAY_MS = 250;

export interface SearchBoxProps {
  /** The search in effect (from the address). */
  query: string;
  /** Called ~250 ms after the last keystroke, or at once on Enter. */
  onSearch: (query: string) => void;
  /** The field, for the page's `/` key. */
  ref?: Ref<HTMLInputElement>;
}

/** The search field of the list; what it shows follows `query` when the address changes. */
export function SearchBox({ query, onSearch, ref }: SearchBoxProps) {
  const { t } = useNotesMessages('note');
  const id = useId();
  const [text, setText] = useState(query);
  const [followed, setFollowed] = useState(query);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Back and forward change the search in the address: the field shows it.
  if (query !== followed) {
    setFollowed(query);
    if (query !== text.trim()) setText(query);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onSearch(value.trim()), SEARCH_DELAY_MS);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clearTimeout(timer.current);
    onSearch(text.trim());
  };

  return (
    <form className="notes-search" role="search" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <SearchInput
        ref={ref}
        id={id}
        value={text}
        maxLength={200}
        placeholder={t('search.placeholder')}
        shortcut="/"
        onChange={(event) => change(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !text) event.currentTarget.blur();
        }}
      />
    </form>
  );
}
