import type { Note, SearchHit } from '@noted/api';
import { Link } from '@noted/router';
import type { NotesApi } from './api';
import { useNotesMessages } from './messages';
import { NoteActionButtons, NoteActionPanels, useNoteActions } from './NoteActions';
import { Highlighted } from './search/Highlighted';
import { excerpt, formatDate } from './text';

export interface NoteItemProps {
  /** A note of the list, with the matches marked when it was found by a search. */
  note: SearchHit;
  api: NotesApi;
  /** The note changed (pinned, shared, ...): the list shows the new version. */
  onChanged: (note: Note) => void;
  onDeleted: (note: Note) => void;
  onTag: (tag: string) => void;
}

export function NoteItem({ note, api, onChanged, onDeleted, onTag }: NoteItemProps) {
  const { t, i18n } = useNotesMessages('note');
  const titleId = `note-${note.id}-title`;
  const actions = useNoteActions({ note, api, onChanged, onDeleted });
  const { highlights } = note;
  const preview = highlights?.note ? (
    <Highlighted html={highlights.note} />
  ) : (
    excerpt(note.note) || null
  );

  return (
    <li>
      <article className="note-item" aria-labelledby={titleId} aria-busy={actions.busy}>
        <div className="note-item-head">
          <h3 id={titleId}>
            {note.isPinned ? <span className="note-badge">{t('common.pinned')}</span> : null}
            <Link className="note-title-link" to={`/notes/${note.id}`}>
              {highlights?.title ? (
                <Highlighted html={highlights.title} />
              ) : (
                note.title || t('common.untitled')
              )}
            </Link>
          </h3>
          <NoteActionButtons note={note} actions={actions} />
        </div>
        {preview ? <p className="note-excerpt">{preview}</p> : null}
        <NoteActionPanels note={note} actions={actions} />
        <div className="note-meta">
          <time dateTime={note.createdAt}>{formatDate(note.createdAt, i18n.language)}</time>
          {note.tags.length > 0 ? (
            <ul className="note-tags" aria-label={t('common.tags')}>
              {note.tags.map((tag) => (
                <li key={tag}>
                  <button
                    type="button"
                    className="note-tag"
                    onClick={() => onTag(tag)}
                    aria-label={t('common.showTagged', { tag })}
                  >
                    #{tag}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </article>
    </li>
  );
}
