import type { Note } from '@noted/api';
import { useId, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import type { NotesApi } from './api';
import { log } from './log';
import { useErrorText, useNotesMessages } from './messages';
import { errorCode, parseTags } from './text';

export interface NoteFormProps {
  create: NotesApi['notes']['create'];
  onCreated: (note: Note) => void;
}

export function NoteForm({ create, onCreated }: NoteFormProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const id = useId();
  const titleRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [tags, setTags] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const errorId = `${id}-error`;

  const submit = async () => {
    if (saving) return;
    setSaved(undefined);
    if (!title.trim() && !body.trim()) {
      setError(t('form.empty'));
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const note = await create({ title: title.trim(), note: body, tags: parseTags(tags) });
      setTitle('');
      setBody('');
      setTags('');
      setSaved(t('form.saved', { title: note.title || t('common.untitled') }));
      onCreated(note);
      titleRef.current?.focus();
    } catch (caught) {
      if (errorCode(caught) === 'VALIDATION_FAILED') {
        setError(errorText(caught));
      } else {
        log.error('Creating a note failed.', caught);
        setError(t('form.saveFailed', { reason: errorText(caught) }));
      }
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit();
  };

  const onBodyKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const describedBy = error ? errorId : undefined;

  return (
    <form className="note-form" onSubmit={onSubmit} aria-labelledby={`${id}-heading`} noValidate>
      <h2 id={`${id}-heading`}>{t('form.heading')}</h2>
      <div className="note-field">
        <label htmlFor={`${id}-title`}>{t('form.title')}</label>
        <input
          ref={titleRef}
          id={`${id}-title`}
          name="title"
          type="text"
          maxLength={500}
          autoComplete="off"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      <div className="note-field">
        <label htmlFor={`${id}-body`}>{t('form.body')}</label>
        <textarea
          id={`${id}-body`}
          name="note"
          rows={5}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={onBodyKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      <div className="note-field">
        <label htmlFor={`${id}-tags`}>{t('form.tags')}</label>
        <input
          id={`${id}-tags`}
          name="tags"
          type="text"
          autoComplete="off"
          value={tags}
          onChange={(event) => setTags(event.target.value)}
          aria-describedby={[`${id}-tags-hint`, describedBy].filter(Boolean).join(' ')}
        />
        <p id={`${id}-tags-hint`} className="note-hint">
          {t('form.tagsHint')}
        </p>
      </div>
      {error ? (
        <p id={errorId} className="note-form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="note-form-actions">
        <button type="submit" className="ui-button ui-button-primary" disabled={saving}>
          {saving ? t('form.saving') : t('form.add')}
        </button>
        <span className="note-form-status" role="status">
          {saved}
        </span>
      </div>
    </form>
  );
}
