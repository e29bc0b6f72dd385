import type { TagList } from '@noted/api';
import { useState, type FormEvent } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { errorMessage, parseTags } from './text';
import { useLoad } from './useLoad';

/** Tags shown before "More tags"; the rest are one click away. */
const SHOWN_TAGS = 12;

export interface TagBarProps {
  api: Pick<NotesApi, 'tags'>;
  /** The tag the list is filtered by, if any. */
  tag: string | undefined;
  onTag: (tag: string | undefined) => void;
  /** Changes whenever notes may have changed, so the counts are loaded again. */
  generation: number;
  /** A tag was renamed or deleted: the notes shown changed too. */
  onRetagged: () => void;
}

type Editing = { kind: 'rename'; name: string } | { kind: 'delete' } | undefined;

/**
 * The user's tags with how many notes have each, to filter the list by one; the tag filtered
 * by can be renamed (merging into a tag of that name) or taken off every note.
 */
export function TagBar({ api, tag, onTag, generation, onRetagged }: TagBarProps) {
  const { settled, show } = useLoad<TagList>(
    `tags:${generation}`,
    () => api.tags.list(),
    (error) => log.error('Loading tags failed.', error),
  );
  const [expanded, setExpanded] = useState(false);
  const [editing, setEditing] = useState<Editing>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  if (!settled) return null;
  if ('error' in settled) {
    return (
      <p className="notes-tags-error" role="alert">
        Tags could not be loaded: {errorMessage(settled.error)}
      </p>
    );
  }
  const tags = settled.value.items;
  if (tags.length === 0) return null;
  const shown = expanded ? tags : tags.slice(0, SHOWN_TAGS);
  // The tag filtered by stays visible even when it is not among the most used.
  const active = tags.find((item) => item.tag === tag);
  if (active && !shown.includes(active)) shown.push(active);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      setEditing(undefined);
    } catch (failure) {
      log.error('Changing a tag failed.', failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!tag || editing?.kind !== 'rename') return;
    const [name] = parseTags(editing.name);
    if (!name || name === tag) {
      setEditing(undefined);
      return;
    }
    void run(async () => {
      await api.tags.rename(tag, name);
      onTag(name);
      onRetagged();
    });
  };

  const remove = () =>
    run(async () => {
      if (!tag) return;
      await api.tags.remove(tag);
      show({ items: tags.filter((item) => item.tag !== tag) });
      onTag(undefined);
      onRetagged();
    });

  return (
    <div className="notes-tag-bar">
      <ul className="notes-tag-chips" aria-label="Filter by tag">
        {shown.map((item) => (
          <li key={item.tag}>
            <button
              type="button"
              className="notes-tag-chip"
              aria-pressed={item.tag === tag}
              onClick={() => onTag(item.tag === tag ? undefined : item.tag)}
            >
              #{item.tag} <span className="notes-tag-count">{item.count}</span>
            </button>
          </li>
        ))}
        {tags.length > SHOWN_TAGS ? (
          <li>
            <button
              type="button"
              className="notes-button"
              aria-expanded={expanded}
              onClick={() => setExpanded((value) => !value)}
            >
              {expanded ? 'Fewer tags' : `All ${tags.length} tags`}
            </button>
          </li>
        ) : null}
      </ul>
      {tag && active ? (
        <div className="notes-tag-edit">
          {editing?.kind === 'rename' ? (
            <form onSubmit={rename} className="notes-tag-rename">
              <label>
                Rename #{tag} to{' '}
                <input
                  value={editing.name}
                  onChange={(event) => setEditing({ kind: 'rename', name: event.target.value })}
                  maxLength={64}
                  autoFocus
                />
              </label>
              <button type="submit" className="notes-button notes-button-primary" disabled={busy}>
                Rename
              </button>
              <button
                type="button"
                className="notes-button"
                onClick={() => setEditing(undefined)}
                disabled={busy}
              >
                Cancel
              </button>
            </form>
          ) : null}
          {editing?.kind === 'delete' ? (
            <div className="note-confirm" role="alertdialog" aria-label={`Delete the tag #${tag}?`}>
              <p>
                Take #{tag} off {active.count} {active.count === 1 ? 'note' : 'notes'}? The notes
                stay.
              </p>
              <button type="button" className="notes-button" onClick={remove} disabled={busy}>
                Delete tag
              </button>
              <button
                type="button"
                className="notes-button"
                onClick={() => setEditing(undefined)}
                disabled={busy}
              >
                Cancel
              </button>
            </div>
          ) : null}
          {editing === undefined ? (
            <>
              <button
                type="button"
                className="notes-button"
                onClick={() => setEditing({ kind: 'rename', name: tag })}
              >
                Rename tag
              </button>
              <button
                type="button"
                className="notes-button"
                onClick={() => setEditing({ kind: 'delete' })}
              >
                Delete tag
              </button>
            </>
          ) : null}
          {error ? (
            <p className="notes-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
