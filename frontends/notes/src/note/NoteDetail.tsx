import type { Note } from '@noted/api';
import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { KeyboardEvent } from 'react';
import { Trans } from 'react-i18next';
import { Link, useNavigate } from '@noted/router';
import { RelatedNotes } from '../ai/RelatedNotes';
import { NoteSummaryPanel } from '../ai/NoteSummaryPanel';
import { AiWriterButton, AiWriterTools, useAiWriter } from '../ai/writer/AiWriter';
import type { NotesApi } from '../api';
import { NoteImages } from '../images/NoteImages';
import { useErrorText, useNotesMessages, type Translate } from '../messages';
import { NoteActionButtons, NoteActionPanels, useNoteActions } from '../NoteActions';
import { formatDate } from '../text';
import { createAutosave, type Draft, type SaveState } from './autosave';
import { Backlinks } from './Backlinks';
import { MarkdownEditor, type FindTitles } from './editor';
import { LinksDialog } from './LinksDialog';
import { toggleTask } from './markdown';
import { MarkdownPreview } from './MarkdownPreview';
import { TagEditor } from './TagEditor';
import { useNoteLinks } from './useNoteLinks';

const TITLE_SUGGESTIONS = 8;

const statusText = (t: Translate, state: SaveState, errorText: (error: unknown) => string) => {
  switch (state.status) {
    case 'pending':
    case 'saving':
      return t('note.save.saving');
    case 'saved':
      return t('note.save.saved');
    case 'failed':
      return t('note.save.failed', { reason: errorText(state.reason) });
    case 'idle':
      return '';
  }
};

export interface NoteDetailProps {
  /** The note as loaded. */
  initial: Note;
  api: NotesApi;
}

/** A note to read and edit: saved as it is typed, with its tags, links, images and actions. */
export function NoteDetail({ initial, api }: NoteDetailProps) {
  const { t, i18n } = useNotesMessages('note');
  const { t: tAi } = useNotesMessages('ai');
  const errorText = useErrorText();
  const id = useId();
  const navigate = useNavigate();
  const [note, setNote] = useState(initial);
  const [draft, setDraft] = useState<Draft>({
    title: initial.title,
    note: initial.note,
    tags: initial.tags,
  });
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const [linksOpen, setLinksOpen] = useState(false);
  const links = useNoteLinks(api, initial.id);
  const { reload: reloadLinks } = links;
  const [saves, setSaves] = useState(0);
  /** 0 while no summary is shown; each Summarize counts up and asks again. */
  const [summaryRequest, setSummaryRequest] = useState(0);

  // Saves name the version they were made on: one made on an older version (another tab or
  // device saved in between) is refused with CONFLICT instead of overwriting it.
  const [autosave] = useState(() =>
    createAutosave({
      initial: { title: initial.title, note: initial.note, tags: initial.tags },
      base: initial.updatedAt,
      save: (patch, base) =>
        api.notes.update(initial.id, { ...patch, ...(base ? { baseUpdatedAt: base } : {}) }),
      onSaved: (saved, patch) => {
        setNote((current) => ({ ...current, ...patch, updatedAt: saved.updatedAt }));
        // [[Title]] in the body, or this note's title, decide where wiki links go.
        if (patch.note !== undefined || patch.title !== undefined) reloadLinks();
        setSaves((n) => n + 1);
      },
    }),
  );
  /** The note as an action on this page changed it: the version to edit on from now. */
  const showNote = (next: Note) => {
    autosave.rebase(next.updatedAt);
    setNote(next);
  };
  const saveState = useSyncExternalStore(autosave.subscribe, autosave.getState);
  const flush = () => void autosave.flush();

  // Whatever way the page is left, what was typed is saved.
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!autosave.isDirty()) return;
      void autosave.flush();
      event.preventDefault();
    };
    const pageHide = () => void autosave.flush();
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pagehide', pageHide);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pagehide', pageHide);
      void autosave.flush();
    };
  }, [autosave]);

  const actions = useNoteActions({
    note,
    api,
    onChanged: showNote,
    onDeleted: () => {
      autosave.close();
      void navigate('/', { replace: true });
    },
  });

  const edit = (fields: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...fields }));
    autosave.change(fields);
  };
  const editTags = (tags: string[]) => {
    edit({ tags });
    flush();
  };
  const toggle = (line: number) => edit({ note: toggleTask(draft.note, line) });
  const writerArea = useRef<HTMLDivElement>(null);
  const writerButton = useRef<HTMLButtonElement>(null);
  const writer = useAiWriter({
    api,
    noteId: initial.id,
    text: draft.note,
    onApply: (text) => edit({ note: text }),
    area: writerArea,
    opener: writerButton,
  });

  const findTitles = useCallback<FindTitles>(
    async (query, signal) => {
      const page = await api.notes.list(
        { ...(query ? { search: query } : {}), limit: TITLE_SUGGESTIONS },
        { signal },
      );
      const titles = page.items
        .filter((found) => found.id !== initial.id)
        .map((found) => found.title.trim())
        .filter(Boolean);
      return [...new Set(titles)];
    },
    [api, initial.id],
  );

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 's' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      flush();
    }
  };

  const bodyLabelId = `${id}-body`;
  const toolbarId = `${id}-ai-toolbar`;
  return (
    <div className="note-layout">
      <div className="note-page" onKeyDown={onKeyDown}>
        <p className="note-back">
          <Link to="/">
            <span aria-hidden="true">← </span>
            {t('note.allNotes')}
          </Link>
        </p>
        <h1 className="visually-hidden">{draft.title || t('common.untitled')}</h1>
        <div className="note-page-head">
          <div className="note-field note-title-field">
            <label htmlFor={`${id}-title`}>{t('note.title')}</label>
            <input
              id={`${id}-title`}
              type="text"
              maxLength={500}
              autoComplete="off"
              value={draft.title}
              onChange={(event) => edit({ title: event.target.value })}
              onBlur={flush}
            />
          </div>
          <div className="note-save">
            <p className="note-save-status" role="status">
              {statusText(t, saveState, errorText)}
            </p>
            {saveState.status === 'failed' && saveState.code === 'CONFLICT' ? (
              <>
                <button
                  type="button"
                  className="ui-button"
                  onClick={() => {
                    autosave.rebase(undefined);
                    flush();
                  }}
                >
                  {t('note.save.keepMine')}
                </button>
                <button
                  type="button"
                  className="ui-button"
                  onClick={() => {
                    autosave.close();
                    window.location.reload();
                  }}
                >
                  {t('note.save.loadOther')}
                </button>
              </>
            ) : null}
            {saveState.status === 'failed' && saveState.code !== 'CONFLICT' ? (
              <button type="button" className="ui-button" onClick={flush}>
                {t('common.retry')}
              </button>
            ) : null}
          </div>
        </div>
        <NoteActionButtons note={note} actions={actions}>
          <button type="button" className="ui-button" onClick={() => setLinksOpen(true)}>
            {t('note.links')}
          </button>
          <button
            type="button"
            className="ui-button"
            onClick={() => {
              flush();
              setSummaryRequest((n) => n + 1);
            }}
          >
            {tAi('summary.summarize')}
          </button>
        </NoteActionButtons>
        <NoteActionPanels note={note} actions={actions} />
        {summaryRequest > 0 ? (
          <NoteSummaryPanel
            api={api}
            noteId={initial.id}
            request={summaryRequest}
            onRetry={() => setSummaryRequest((n) => n + 1)}
            onClose={() => setSummaryRequest(0)}
          />
        ) : null}
        <p className="note-meta">
          {note.isPinned ? <span className="note-badge">{t('common.pinned')}</span> : null}
          <span>
            <Trans
              t={t}
              i18nKey="common.updated"
              values={{ date: formatDate(note.updatedAt, i18n.language) }}
              components={{ time: <time dateTime={note.updatedAt} /> }}
            />
          </span>
        </p>
        <TagEditor tags={draft.tags} onChange={editTags} />
        <div className="note-body">
          <div className="note-body-head">
            <span id={bodyLabelId} className="note-body-label">
              {t('note.body')}
            </span>
            <AiWriterButton
              writer={writer}
              toolbarId={toolbarId}
              disabled={mode !== 'edit'}
              buttonRef={writerButton}
            />
            <div className="note-mode" role="group" aria-label={t('note.showAs')}>
              <button
                type="button"
                className="ui-button"
                aria-pressed={mode === 'edit'}
                onClick={() => setMode('edit')}
              >
                {t('note.edit')}
              </button>
              <button
                type="button"
                className="ui-button"
                aria-pressed={mode === 'preview'}
                onClick={() => {
                  flush();
                  setMode('preview');
                }}
              >
                {t('note.preview')}
              </button>
            </div>
          </div>
          <div hidden={mode !== 'edit'} ref={writerArea} className="ai-writer-area">
            <MarkdownEditor
              labelId={bodyLabelId}
              value={draft.note}
              onChange={(value) => edit({ note: value })}
              onBlur={flush}
              findTitles={findTitles}
              titleSuggestionLabel={t('editor.titleSuggestion')}
              onSelectionChange={writer.select}
              slashCommands={writer.slashCommands}
            />
            <AiWriterTools writer={writer} toolbarId={toolbarId} enabled={mode === 'edit'} />
          </div>
          {mode === 'preview' ? (
            <MarkdownPreview
              body={draft.note}
              outgoing={links.links?.outgoing}
              onToggleTask={toggle}
            />
          ) : null}
        </div>
        <NoteImages api={api} note={note} onChanged={showNote} />
        <Backlinks state={links} />
        {linksOpen ? (
          <LinksDialog
            api={api}
            noteId={initial.id}
            links={links.links}
            onLinksChanged={links.show}
            onClose={() => setLinksOpen(false)}
          />
        ) : null}
      </div>
      <RelatedNotes api={api} noteId={initial.id} generation={saves} />
    </div>
  );
}
