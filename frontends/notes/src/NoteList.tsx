import type { Note } from '@noted/api';
import { NoteItem, type NoteItemProps } from './NoteItem';

export function NoteList({ notes, ...handlers }: { notes: Note[] } & Omit<NoteItemProps, 'note'>) {
  return (
    <ol className="note-list">
      {notes.map((note) => (
        <NoteItem key={note.id} note={note} {...handlers} />
      ))}
    </ol>
  );
}
