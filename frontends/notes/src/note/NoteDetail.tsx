import type { LiveNote, Note } from '@noted/api';
import {
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { KeyboardEvent } from 'react';
import { Trans } from 'react-i18next';
import {
  ArrowLeftIcon,
  Button,
  Callout,
  CheckIcon,
  CloudOffIcon,
  EllipsisIcon,
  EyeIcon,
  GlobeIcon,
  IconButton,
  LinkIcon,
  Menu,
  PencilIcon,
  PinIcon,
  RefreshIcon,
  ShareIcon,
  ScrollTextIcon,
  TrashIcon,
  buttonClass,
  useShell,
  type MenuEntry,
  type PendingChange,
} from '@noted/ui';
import { Link, useNavigate } from '@noted/router';
import { RelatedNotes } from '../ai/RelatedNotes';
import { NoteSummaryPanel } from '../ai/NoteSummaryPanel';
import { AiWriterButton, AiWriterTools, useAiWriter } from '../ai/writer/AiWriter';
import type { NotesApi } from '../api';
import { CaptureKept } from '../capture/CaptureKept';
import { CaptureStatus } from '../capture/CaptureStatus';
import { SuggestedTags } from '../capture/SuggestedTags';
import { ExportMenu } from '../data/ExportMenu';
import { NoteImages } from '../images/NoteImages';
import { useErrorText, useNotesMessages, type Translate } from '../messages';
import { NoteActionPanels, useNoteActions } from '../NoteActions';
import { formatDate, relativeDate } from '../text';
import { createAutosave, type Draft, type SaveState } from './autosave';
import { Backlinks } from './Backlinks';
import { MarkdownEditor, type FindTitles } from './editor';
import { LinksDialog } from './LinksDialog';
import { log } from '../log';
import { toggleTask } from './markdown';
import { MarkdownPreview } from './MarkdownPreview';
import { TagEditor } from './TagEditor';
import { useNoteLinks } from './useNoteLinks';
import { useRemoteChanges } from './useRemoteChanges';
import { usePendingFor } from '../offline/useOffline';

const TITLE_SUGGESTIONS = 8;

const statusText = (
  t: Translate,
  state: SaveState,
  errorText: (error: unknown) => string,
  pending: PendingChange | undefined,
) => {
  // Saved into the device copy, not on the server yet.
  if (state.status === 'saved' && pending?.state === 'waiting') return t('offline.savedHere');
  if (state.status === 'saved' && pending?.state === 'sending') return t('note.save.saving');
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

/**
 * The note's title as the page's big heading, editable in place: it wraps onto more lines as
 * it grows (a long title is never cut), and Enter does not break it.
 */
function TitleField({
  id,
  label,
  placeholder,
  value,
  onChange,
  onBlur,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const field = ref.current;
    if (!field) return;
    field.style.height = 'auto';
    field.style.height = `${field.scrollHeight}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      id={id}
      className="note-title-input"
      rows={1}
      maxLength={500}
      autoComplete="off"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\s*\n\s*/g, ' '))}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
      onBlur={onBlur}
    />
  );
}

/**
 * A change made on this device that the server did not take: the note changed elsewhere
 * since (keep mine over it, or take the other), was deleted elsewhere (keep it with my
 * changes, or let it go), or was refused (try again, or drop my changes).
 */
function HeldChange({
  change,
  onKeep,
  onDrop,
}: {
  change: PendingChange;
  onKeep: () => void;
  onDrop: () => void;
}) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const kind =
    change.state === 'conflict' ? 'conflict' : change.code === 'NOT_FOUND' ? 'deleted' : 'refused';
  const text = {
    conflict: {
      title: t('offline.conflictTitle'),
      body: t('offline.conflict'),
      keep: t('note.save.keepMine'),
      drop: t('note.remote.takeTheirs'),
    },
    deleted: {
      title: t('offline.deletedTitle'),
      body: t('offline.deleted'),
      keep: t('offline.keepDeleted'),
      drop: t('offline.letGo'),
    },
    refused: {
      title: t('offline.refusedTitle'),
      body: t('offline.refused', {
        reason: errorText({ code: change.code, message: change.message }),
      }),
      keep: t('offline.tryAgain'),
      drop: t('offline.drop'),
    },
  }[kind];
  return (
    <Callout
      tone="warning"
      role="alert"
      title={text.title}
      actions={
        <>
          <Button size="sm" onClick={onKeep}>
            {text.keep}
          </Button>
          <Button size="sm" onClick={onDrop}>
            {text.drop}
          </Button>
        </>
      }
    >
      {text.body}
    </Callout>
  );
}

export interface NoteDetailProps {
  /** The note as loaded. */
  initial: Note;
  api: NotesApi;
  /** A failed or waiting capture was asked to be read again: the note, processing. */
  onCaptureRetried?: (note: Note) => void;
}

/** A note to read and edit: saved as it is typed, with its tags, links, images and actions. */
export function NoteDetail({ initial, api, onCaptureRetried }: NoteDetailProps) {
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
  const shell = useShell();
  const { offline } = shell;
  const pending = usePendingFor(initial.id);
  /** Changes kept on this device that wait for the user's choice (a conflict, a refusal). */
  const held = pending?.state === 'conflict' || pending?.state === 'refused' ? pending : undefined;

  // The note as it changes elsewhere (the live connection): taken in, or offered.
  /** Shows another tab's or device's version, text and all, as the one edited from now. */
  const takeVersion = (incoming: LiveNote) => {
    const text = { title: incoming.title, note: incoming.note, tags: incoming.tags };
    autosave.adopt(text, incoming.updatedAt);
    setDraft(text);
    setNote((current) => ({ ...current, ...incoming }));
    reloadLinks();
  };
  const { remote, dismiss: dismissRemote } = useRemoteChanges({
    noteId: initial.id,
    autosave,
    take: takeVersion,
    adoptFields: (incoming) => {
      autosave.rebase(incoming.updatedAt);
      setNote((current) => ({ ...current, ...incoming }));
    },
  });
  /** Saves what is typed here over the version another tab or device saved. */
  const keepMine = () => {
    autosave.rebase(undefined);
    dismissRemote();
    // A change held in the device copy goes first (over the other version, or again).
    void offline.keepMine(initial.id).then(flush);
  };
  /** Drops what waits on this device for the note: the server's version is shown, if any. */
  const dropMine = async () => {
    const fresh = await offline.discard(initial.id);
    if (fresh) takeVersion(fresh);
    else {
      autosave.close();
      void navigate('/', { replace: true });
    }
  };
  const deletedElsewhere = remote?.kind === 'deleted';
  const offeredConflict =
    remote?.kind === 'changed' && saveState.status === 'failed' && saveState.code === 'CONFLICT';
  useEffect(() => {
    if (deletedElsewhere) autosave.close();
  }, [autosave, deletedElsewhere]);

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
  const [dismissingTags, setDismissingTags] = useState(false);
  /** Leaves the capture's tag suggestions: the server offers them no more. */
  const dismissTags = () => {
    setDismissingTags(true);
    api.capture
      .dismissTags(initial.id)
      .then((next) => setNote((current) => ({ ...current, capture: next.capture })))
      .catch((error: unknown) => shell.toast(errorText(error)))
      .finally(() => setDismissingTags(false));
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
  const untitled = t('common.untitled');
  const menuEntries: MenuEntry[] = [
    note.publicId
      ? { label: t('actions.stopSharing'), icon: LinkIcon, onSelect: () => void actions.unshare() }
      : { label: t('actions.share'), icon: ShareIcon, onSelect: () => void actions.share() },
    'separator',
    {
      label: t('actions.delete'),
      icon: TrashIcon,
      danger: true,
      onSelect: () => void actions.remove(),
    },
  ];
  return (
    <div className="note-layout">
      <div className="note-page" onKeyDown={onKeyDown}>
        <div className="note-topbar">
          <Link className={buttonClass({ variant: 'ghost', size: 'sm' })} to="/">
            <ArrowLeftIcon className="ui-icon" aria-hidden="true" />
            {t('note.allNotes')}
          </Link>
          {/* A note deleted elsewhere is saved no more: its callout says what can be done. */}
          <div className="note-save" data-status={saveState.status} hidden={deletedElsewhere}>
            <p
              className="note-save-status"
              role="status"
              title={pending?.state === 'waiting' ? t('offline.savedHereHint') : undefined}
            >
              {/* The callout below says why and offers the choice; the line just says so. */}
              {offeredConflict || held ? null : saveState.status === 'saved' &&
                pending?.state === 'waiting' ? (
                <CloudOffIcon className="ui-icon" aria-hidden="true" />
              ) : saveState.status === 'saved' ? (
                <CheckIcon className="ui-icon" aria-hidden="true" />
              ) : null}
              {offeredConflict || held
                ? t('note.remote.notSaved')
                : statusText(t, saveState, errorText, pending)}
            </p>
            {saveState.status === 'failed' &&
            saveState.code === 'CONFLICT' &&
            !offeredConflict &&
            !held ? (
              <>
                <Button size="sm" onClick={keepMine}>
                  {t('note.save.keepMine')}
                </Button>
                <Button
                  size="sm"
                  onClick={() => {
                    autosave.close();
                    window.location.reload();
                  }}
                >
                  {t('note.save.loadOther')}
                </Button>
              </>
            ) : null}
            {saveState.status === 'failed' && saveState.code !== 'CONFLICT' && !held ? (
              <Button size="sm" icon={RefreshIcon} onClick={flush}>
                {t('common.retry')}
              </Button>
            ) : null}
          </div>
          <div className="note-tools">
            <IconButton
              label={note.isPinned ? t('actions.unpin') : t('actions.pin')}
              icon={PinIcon}
              size="sm"
              aria-pressed={note.isPinned}
              disabled={actions.busy}
              onClick={() => void actions.togglePin()}
            />
            <Button size="sm" variant="ghost" icon={LinkIcon} onClick={() => setLinksOpen(true)}>
              {t('note.links')}
            </Button>
            {note.publicId ? null : (
              <Button
                size="sm"
                variant="ghost"
                icon={ShareIcon}
                disabled={actions.busy}
                onClick={() => void actions.share()}
              >
                {t('actions.share')}
              </Button>
            )}
            <ExportMenu note={note} api={api} beforeExport={() => autosave.flush()} />
            <Menu
              label={t('actions.menu', { title: draft.title || untitled })}
              icon={EllipsisIcon}
              look={{ size: 'sm' }}
              entries={menuEntries}
            />
          </div>
        </div>
        {held ? (
          <HeldChange change={held} onKeep={keepMine} onDrop={() => void dropMine()} />
        ) : null}
        {remote?.kind === 'changed' && !held ? (
          <Callout
            tone="warning"
            role="alert"
            title={t('note.remote.changedTitle')}
            actions={
              <>
                <Button size="sm" onClick={keepMine}>
                  {t('note.save.keepMine')}
                </Button>
                <Button
                  size="sm"
                  onClick={() => {
                    takeVersion(remote.note);
                    dismissRemote();
                  }}
                >
                  {t('note.remote.takeTheirs')}
                </Button>
              </>
            }
          >
            {t('note.remote.changed')}
          </Callout>
        ) : null}
        {deletedElsewhere ? (
          <Callout
            tone="danger"
            role="alert"
            title={t('note.remote.deletedTitle')}
            actions={
              <>
                <Button
                  size="sm"
                  onClick={() =>
                    void api.notes
                      .create({ title: draft.title, note: draft.note, tags: draft.tags })
                      .then(
                        (copy) => navigate(`/notes/${copy.id}`, { replace: true }),
                        (error: unknown) => log.error('Saving a copy failed.', error),
                      )
                  }
                >
                  {t('note.remote.keepCopy')}
                </Button>
                <Link className={buttonClass({ size: 'sm' })} to="/">
                  {t('note.allNotes')}
                </Link>
              </>
            }
          >
            {t('note.remote.deleted')}
          </Callout>
        ) : null}
        <h1 className="visually-hidden">{draft.title || untitled}</h1>
        <TitleField
          id={`${id}-title`}
          label={t('note.title')}
          placeholder={untitled}
          value={draft.title}
          onChange={(title) => edit({ title })}
          onBlur={flush}
        />
        <div className="note-meta">
          <span>
            <Trans
              t={t}
              i18nKey="common.updated"
              values={{ date: relativeDate(note.updatedAt, i18n.language, t('common.justNow')) }}
              components={{
                time: (
                  <time
                    dateTime={note.updatedAt}
                    title={formatDate(note.updatedAt, i18n.language)}
                  />
                ),
              }}
            />
          </span>
          {note.isPinned ? (
            <span className="ui-badge">
              <PinIcon className="ui-icon" aria-hidden="true" />
              {t('common.pinned')}
            </span>
          ) : null}
          {note.publicId ? (
            <span className="ui-badge ui-badge-accent">
              <GlobeIcon className="ui-icon" aria-hidden="true" />
              {t('list.shared')}
            </span>
          ) : null}
        </div>
        <TagEditor tags={draft.tags} onChange={editTags} />
        {note.capture?.suggestedTags ? (
          <SuggestedTags
            suggested={note.capture.suggestedTags}
            tags={draft.tags}
            onAdd={editTags}
            dismissing={dismissingTags}
            onDismiss={dismissTags}
          />
        ) : null}
        {note.capture ? (
          // The capture's words come after the note's; the page does not wait for them.
          <Suspense fallback={null}>
            <CaptureStatus
              note={note}
              api={api}
              onChanged={(next) => onCaptureRetried?.(next)}
              beforeRetry={async () => {
                // What was typed is saved first; the text read again then replaces the body.
                await autosave.flush();
                return autosave.getState().status !== 'failed';
              }}
            />
            <CaptureKept note={note} api={api} />
          </Suspense>
        ) : null}
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
        <div className="note-body">
          <div className="note-body-head">
            <span id={bodyLabelId} className="visually-hidden">
              {t('note.body')}
            </span>
            <div className="ui-segmented note-mode" role="group" aria-label={t('note.showAs')}>
              <button type="button" aria-pressed={mode === 'edit'} onClick={() => setMode('edit')}>
                <PencilIcon className="ui-icon" aria-hidden="true" />
                {t('note.edit')}
              </button>
              <button
                type="button"
                aria-pressed={mode === 'preview'}
                onClick={() => {
                  flush();
                  setMode('preview');
                }}
              >
                <EyeIcon className="ui-icon" aria-hidden="true" />
                {t('note.preview')}
              </button>
            </div>
            <div className="note-ai-tools">
              <AiWriterButton
                writer={writer}
                toolbarId={toolbarId}
                disabled={mode !== 'edit'}
                buttonRef={writerButton}
              />
              <Button
                size="sm"
                variant="ghost"
                icon={ScrollTextIcon}
                onClick={() => {
                  flush();
                  setSummaryRequest((n) => n + 1);
                }}
              >
                {tAi('summary.summarize')}
              </Button>
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
      </div>
      <div className="note-side">
        <Backlinks state={links} />
        <RelatedNotes api={api} noteId={initial.id} generation={saves} />
      </div>
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
  );
}
