import type { Note } from '@noted/api';
import { ArrowLeftIcon, TagChips, buttonClass } from '@noted/ui';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { NoteThumbs } from '../images/NoteThumbs';
import { useNotesMessages } from '../messages';
import { MarkdownPreview } from '../note/MarkdownPreview';
import { CaptureKept } from './CaptureKept';
import { CaptureStatus } from './CaptureStatus';
import { useCapturePolling } from './useCapturePolling';

export interface CapturingNoteProps {
  note: Note;
  api: NotesApi;
  /** A newer version came (a step further, or filled in and ready). */
  onChanged: (note: Note) => void;
}

/**
 * A note while the server reads it: read-only, so nothing typed can be overwritten when the
 * text arrives. It asks for the note every few seconds and hands over each new version; once
 * the capture is no longer processing, the page shows the editor instead.
 */
export function CapturingNote({ note, api, onChanged }: CapturingNoteProps) {
  const { t } = useNotesMessages('note');
  const { t: tCapture } = useNotesMessages('capture');
  useCapturePolling(api, note, onChanged);
  const title = note.title || t('common.untitled');
  return (
    <div className="note-layout">
      <article className="note-page capture-page" aria-labelledby="capture-page-title">
        <div className="note-topbar">
          <Link className={buttonClass({ variant: 'ghost', size: 'sm' })} to="/">
            <ArrowLeftIcon className="ui-icon" aria-hidden="true" />
            {t('note.allNotes')}
          </Link>
        </div>
        <h1 id="capture-page-title" className="capture-page-title">
          {title}
        </h1>
        <CaptureStatus note={note} api={api} onChanged={onChanged} />
        <p className="ui-hint">{tCapture('status.readOnly')}</p>
        <TagChips tags={note.tags} label={t('common.tags')} />
        <CaptureKept note={note} api={api} />
        {note.images.length > 0 ? (
          <NoteThumbs api={api} urls={note.images} title={note.title} />
        ) : null}
        <div className="note-body">
          {note.note.trim() ? (
            <MarkdownPreview body={note.note} wikiLinks="text" />
          ) : (
            <p className="capture-pending">{tCapture('status.bodyPending')}</p>
          )}
        </div>
      </article>
    </div>
  );
}
