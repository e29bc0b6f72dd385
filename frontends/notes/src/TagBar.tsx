import type { TagList } from '@noted/api';
import { Button, PencilIcon, TagIcon, TrashIcon, XIcon, useShell } from '@noted/ui';
import { useState, type FormEvent } from 'react';
import { Trans } from 'react-i18next';
import type { NotesApi } from './api';
import { log } from './log';
import { useErrorText, useNotesMessages } from './messages';
import { parseTags } from './text';
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

type Renaming = { name: string } | undefined;

/**
 * The user's tags with how many notes have each, to filter the list by one; the tag filtered
 * by can be renamed (merging into a tag of that name) or taken off every note.
 */
export function TagBar({ api, tag, onTag, generation, onRetagged }: TagBarProps) {
  const shell = useShell();
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const { settled, show } = useLoad<TagList>(
    `tags:${generation}`,
    () => api.tags.list(),
    (error) => log.error('Loading tags failed.', error),
  );
  const [expanded, setExpanded] = useState(false);
  const [renaming, setRenaming] = useState<Renaming>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  if (!settled) return null;
  if ('error' in settled) {
    return (
      <p className="note-error" role="alert">
        {t('tags.loadFailed', { reason: errorText(settled.error) })}
      </p>
    );
  }
  const tags = settled.value.items;
  if (tags.length === 0 && !tag) return null;
  const shown = expanded ? tags : tags.slice(0, SHOWN_TAGS);
  // The tag filtered by stays visible even when it is not among the most used.
  const active = tags.find((item) => item.tag === tag);
  if (active && !shown.includes(active)) shown.push(active);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      setRenaming(undefined);
    } catch (failure) {
      log.error('Changing a tag failed.', failure);
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!tag || !renaming) return;
    const [name] = parseTags(renaming.name);
    if (!name || name === tag) {
      setRenaming(undefined);
      return;
    }
    void run(async () => {
      await api.tags.rename(tag, name);
      onTag(name);
      onRetagged();
    });
  };

  const remove = async (count: number) => {
    if (!tag) return;
    const confirmed = await shell.confirm({
      title: t('tags.confirmDelete.title', { tag }),
      message: t('tags.confirmDelete.message', { tag, count }),
      confirmLabel: t('tags.deleteTag'),
      danger: true,
    });
    if (!confirmed) return;
    await run(async () => {
      await api.tags.remove(tag);
      show({
        ...settled.value,
        items: tags.filter((item) => item.tag !== tag),
        total: settled.value.total - 1,
      });
      onTag(undefined);
      onRetagged();
    });
  };

  return (
    <div className="notes-tag-bar">
      <ul className="notes-tag-chips" aria-label={t('tags.filterBy')}>
        {shown.map((item) => (
          <li key={item.tag}>
            <button
              type="button"
              className="ui-chip"
              aria-pressed={item.tag === tag}
              onClick={() => onTag(item.tag === tag ? undefined : item.tag)}
            >
              #{item.tag} <span className="ui-chip-count">{item.count}</span>
            </button>
          </li>
        ))}
        {tags.length > SHOWN_TAGS ? (
          <li>
            <button
              type="button"
              className="ui-chip notes-tag-more"
              aria-expanded={expanded}
              onClick={() => setExpanded((value) => !value)}
            >
              {expanded ? t('tags.fewer') : t('tags.all', { total: tags.length })}
            </button>
          </li>
        ) : null}
      </ul>
      {tag ? (
        <div className="notes-tag-active">
          {renaming ? (
            <form onSubmit={rename} className="notes-tag-rename">
              <label htmlFor={`${tag}-rename`} className="notes-tag-rename-label">
                {t('tags.renameTo', { tag })}
              </label>
              <input
                id={`${tag}-rename`}
                className="ui-input ui-input-sm"
                value={renaming.name}
                onChange={(event) => setRenaming({ name: event.target.value })}
                maxLength={64}
                autoFocus
              />
              <Button type="submit" size="sm" variant="primary" disabled={busy}>
                {t('tags.rename')}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setRenaming(undefined)}
                disabled={busy}
              >
                {t('common.cancel')}
              </Button>
            </form>
          ) : (
            <>
              <p className="notes-tag-active-text">
                <TagIcon className="ui-icon" aria-hidden="true" />
                <span>
                  <Trans
                    t={t}
                    i18nKey="list.filteredByTag"
                    values={{ tag }}
                    components={{ strong: <strong /> }}
                  />
                </span>
              </p>
              {active ? (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={PencilIcon}
                    onClick={() => setRenaming({ name: tag })}
                  >
                    {t('tags.renameTag')}
                  </Button>
                  <Button
                    size="sm"
                    variant="danger-ghost"
                    icon={TrashIcon}
                    onClick={() => void remove(active.count)}
                    disabled={busy}
                  >
                    {t('tags.deleteTag')}
                  </Button>
                </>
              ) : null}
              <Button size="sm" icon={XIcon} onClick={() => onTag(undefined)}>
                {t('list.showAll')}
              </Button>
            </>
          )}
          {error ? (
            <p className="note-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
