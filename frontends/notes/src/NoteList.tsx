import type { Note } from '@noted/api';
import { excerpt, formatDate } from './text';

function NoteItem({ note }: { note: Note }) {
  const titleId = `note-${note.id}-title`;
  const preview = excerpt(note.note);
  return (
    <li>
      <article className="note-item" aria-labelledby={titleId}>
        <h3 id={titleId}>{note.title || 'Untitled'}</h3>
        {preview ? <p className="note-excerpt">{preview}</p> : null}
        <div className="note-meta">
          <time dateTime={note.createdAt}>{formatDate(note.createdAt)}</time>
          {note.tags.length > 0 ? (
            <ul className="note-tags" aria-label="Tags">
              {note.tags.map((tag) => (
                <li key={tag}>#{tag}</li>
              ))}
            </ul>
          ) : null}
        </div>
      </article>
    </li>
  );
}

export function NoteList({ notes }: { notes: Note[] }) {
  return (
    <ol className="note-list">
      {notes.map((note) => (
        <NoteItem key={note.id} note={note} />
      ))}
    </ol>
  );
}
