import type { InputHTMLAttributes, Ref } from 'react';
import { SearchIcon } from '../icons/icons';

export interface SearchInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'className' | 'size'
> {
  /** A key that focuses the field, shown at its end until it is used ("/"). */
  shortcut?: string;
  size?: 'sm' | 'md';
  /** Classes of the field's frame (its width, say). */
  className?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A search field: the magnifier inside it, and the key that reaches it at its end. */
export function SearchInput({ shortcut, size = 'md', className, ref, ...rest }: SearchInputProps) {
  return (
    <div className={className ? `ui-search ${className}` : 'ui-search'}>
      <SearchIcon className="ui-icon" aria-hidden="true" />
      <input
        ref={ref}
        type="search"
        autoComplete="off"
        className={size === 'sm' ? 'ui-input ui-input-sm' : 'ui-input'}
        aria-keyshortcuts={shortcut}
        {...rest}
      />
      {shortcut ? (
        <kbd className="ui-kbd" aria-hidden="true">
          {shortcut}
        </kbd>
      ) : null}
    </div>
  );
}
