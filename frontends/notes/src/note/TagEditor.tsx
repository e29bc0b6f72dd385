import { XIcon } from '@noted/ui';
import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link } from '@noted/router';
import { useNotesMessages } from '../messages';
import { parseTags } from '../text';

const MAX_TAG_LENGTH = 64;
const MAX_TAGS = 50;

export interface TagEditorProps {
  tags: string[];
  onChange: (tags: string[]) => void;
}

/** The tags of a note as chips, each with its remove button, and a field to add more. */
export function TagEditor({ tags, onChange }: TagEditorProps) {
  const { t } = useNotesMessages('note');
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();

  /** Adds the tags typed; answers false (and says why) when none could be added. */
  const add = (typed: string) => {
    const added = parseTags(typed).filter((tag) => !tags.includes(tag));
    const tooLong = added.find((tag) => tag.length > MAX_TAG_LENGTH);
    if (tooLong) {
      setError(t('tagEditor.tooLong', { max: MAX_TAG_LENGTH }));
      return false;
    }
    if (tags.length + added.length > MAX_TAGS) {
      setError(t('tagEditor.tooMany', { max: MAX_TAGS }));
      return false;
    }
    setError(undefined);
    if (added.length > 0) onChange([...tags, ...added]);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && event.key !== ',') return;
    event.preventDefault();
    if (add(text)) setText('');
  };

  const onTextChange = (value: string) => {
    // A comma pasted or typed on a phone keyboard (no key event) also ends a tag.
    const cut = value.lastIndexOf(',');
    if (cut === -1) {
      setText(value);
      return;
    }
    setText(add(value.slice(0, cut)) ? value.slice(cut + 1).trimStart() : value);
  };

  return (
    <div className="note-tag-editor">
      {tags.length > 0 ? (
        <ul className="note-chips" aria-label={t('common.tags')}>
          {tags.map((tag) => (
            <li key={tag} className="ui-chip note-chip">
              <Link
                to={`/?tag=${encodeURIComponent(tag)}`}
                aria-label={t('common.showTagged', { tag })}
              >
                #{tag}
              </Link>
              <button
                type="button"
                className="note-chip-remove"
                aria-label={t('tagEditor.remove', { tag })}
                title={t('tagEditor.remove', { tag })}
                onClick={() => onChange(tags.filter((kept) => kept !== tag))}
              >
                <XIcon className="ui-icon" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={id} className="visually-hidden">
        {t('tagEditor.add')}
      </label>
      <input
        id={id}
        className="note-tag-input"
        type="text"
        autoComplete="off"
        value={text}
        placeholder={t('tagEditor.placeholder')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onTextChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {error ? (
        <p id={`${id}-error`} className="note-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
