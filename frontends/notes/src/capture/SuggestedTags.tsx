import { PlusIcon, SparklesIcon, XIcon } from '@noted/ui';
import { useId } from 'react';
import { useNotesMessages } from '../messages';

export interface SuggestedTagsProps {
  /** What the capture's reading suggests (`capture.suggestedTags`). */
  suggested: string[];
  /** The note's tags as they are being edited: a suggestion taken is not offered again. */
  tags: string[];
  onAdd: (tags: string[]) => void;
  /** The user leaves the suggestions: they are offered no more. */
  onDismiss: () => void;
  dismissing?: boolean;
}

/**
 * The tags a capture's reading suggests, offered rather than given: each is taken with one
 * click, or all at once, or left. Nothing shows once none is left to take.
 */
export function SuggestedTags({
  suggested,
  tags,
  onAdd,
  onDismiss,
  dismissing = false,
}: SuggestedTagsProps) {
  const { t } = useNotesMessages('capture');
  const labelId = useId();
  const has = new Set(tags.map((tag) => tag.toLowerCase()));
  const offered = suggested.filter((tag) => !has.has(tag.toLowerCase()));
  if (offered.length === 0) return null;
  return (
    <div className="capture-suggested" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="capture-suggested-label">
        <SparklesIcon className="ui-icon" aria-hidden="true" />
        {t('suggested.label')}
      </span>
      <ul className="note-chips">
        {offered.map((tag) => (
          <li key={tag}>
            <button
              type="button"
              className="ui-chip capture-suggested-chip"
              aria-label={t('suggested.add', { tag })}
              onClick={() => onAdd([...tags, tag])}
            >
              <PlusIcon className="ui-icon" aria-hidden="true" />#{tag}
            </button>
          </li>
        ))}
      </ul>
      {offered.length > 1 ? (
        <button
          type="button"
          className="capture-suggested-action"
          onClick={() => onAdd([...tags, ...offered])}
        >
          {t('suggested.addAll')}
        </button>
      ) : null}
      <button
        type="button"
        className="capture-suggested-action capture-suggested-dismiss"
        aria-label={t('suggested.dismiss')}
        title={t('suggested.dismiss')}
        disabled={dismissing}
        onClick={onDismiss}
      >
        <XIcon className="ui-icon" aria-hidden="true" />
      </button>
    </div>
  );
}
