import type { SearchHit } from '@noted/api';
import { NoteItem, type NoteItemProps } from './NoteItem';

export function NoteList({
  notes,
  ...handlers
}: { notes: SearchHit[] } & Omit<NoteItemProps, 'note'>) {
  return (
    <ol className="note-list">
      {notes.map((note) => (
        <NoteItem key={note.id} note={note} {...handlers} />
      ))}
    </ol>
  );
}
