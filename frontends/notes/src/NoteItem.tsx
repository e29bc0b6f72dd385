import type { Note, SearchHit } from '@noted/api';
import {
  CopyIcon,
  EllipsisIcon,
  ExternalLinkIcon,
  LinkIcon,
  Menu,
  PinIcon,
  PinOffIcon,
  ShareIcon,
  TrashIcon,
  useShell,
  type MenuEntry,
} from '@noted/ui';
import { Suspense, lazy, useCallback, useLayoutEffect, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from './api';
import { CaptureStatus } from './capture/CaptureStatus';
import { useCapturePolling } from './capture/useCapturePolling';
import { NoteThumbs } from './images/NoteThumbs';
import { PendingBadge } from './offline/OfflineNotice';
import { log } from './log';
import { useErrorText, useNotesMessages } from './messages';
import { NoteActionPanels, shareUrl, useNoteActions } from './NoteActions';
import { toggleTask } from './note/markdown';
import { Highlighted } from './search/Highlighted';
import { excerpt, formatDate, relativeDate } from './text';

// The Markdown renderer comes after the first paint; until then a card shows its plain text.
const CardMarkdown = lazy(() =>
  import('./note/MarkdownPreview').then((m) => ({ default: m.MarkdownPreview })),
);

export interface NoteItemProps {
  /** A note of the list, with the matches marked when it was found by a search. */
  note: SearchHit;
  api: NotesApi;
  /** The note changed (pinned, shared, ...): the list shows the new version. */
  onChanged: (note: Note) => void;
  onDeleted: (note: Note) => void;
  onTag: (tag: string) => void;
}

/** A card taller than this is cut with a fade and a "Show more". */
const CLAMP_PX = 288;

/** Whether the card's body is taller than the clamp, measured as it renders and resizes. */
function useOverflow() {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setOverflows(element.scrollHeight > CLAMP_PX + 24);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { ref: setElement, overflows };
}

/** The body of a card: Markdown (tasks can be ticked), or the search's marked excerpt. */
function CardBody({
  note,
  onToggleTask,
}: {
  note: SearchHit;
  onToggleTask: (line: number) => void;
}) {
  const { t } = useNotesMessages('note');
  const [expanded, setExpanded] = useState(false);
  const { ref, overflows } = useOverflow();
  if (note.highlights?.note) {
    return (
      <p className="note-card-excerpt">
        <Highlighted html={note.highlights.note} />
      </p>
    );
  }
  if (!note.note.trim()) return null;
  const plain = <p className="note-card-excerpt">{excerpt(note.note, 600)}</p>;
  return (
    <div className="note-card-body" data-clamped={overflows && !expanded ? true : undefined}>
      <div ref={ref} className="note-card-markdown">
        <Suspense fallback={plain}>
          <CardMarkdown body={note.note} onToggleTask={onToggleTask} wikiLinks="text" />
        </Suspense>
      </div>
      {overflows ? (
        <button
          type="button"
          className="note-card-more"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? t('list.showLess') : t('list.showMore')}
        </button>
      ) : null}
    </div>
  );
}

/** One note of the list as a card: title, when, its text rendered, images, tags, actions. */
export function NoteItem({ note, api, onChanged, onDeleted, onTag }: NoteItemProps) {
  const { t, i18n } = useNotesMessages('note');
  const errorText = useErrorText();
  const shell = useShell();
  const titleId = `note-${note.id}-title`;
  const actions = useNoteActions({ note, api, onChanged, onDeleted });
  const [sharePanel, setSharePanel] = useState(false);
  const [taskError, setTaskError] = useState<string>();
  const { highlights } = note;
  // A note being read fills in here as the server goes (and stops asking once it is done).
  useCapturePolling(api, note, onChanged);

  const toggle = useCallback(
    (line: number) => {
      setTaskError(undefined);
      api.notes
        .update(note.id, { note: toggleTask(note.note, line), baseUpdatedAt: note.updatedAt })
        .then(onChanged, (error: unknown) => {
          log.error('Ticking a task from the list failed.', error);
          setTaskError(errorText(error));
        });
    },
    [api, note.id, note.note, note.updatedAt, onChanged, errorText],
  );

  const entries: MenuEntry[] = [
    {
      label: t('actions.open'),
      icon: ExternalLinkIcon,
      onSelect: () => shell.openNote(note.id, { note }),
    },
    note.isPinned
      ? { label: t('actions.unpin'), icon: PinOffIcon, onSelect: () => void actions.togglePin() }
      : { label: t('actions.pin'), icon: PinIcon, onSelect: () => void actions.togglePin() },
    note.publicId
      ? {
          label: t('actions.copyLink'),
          icon: CopyIcon,
          onSelect: () => void actions.copy(shareUrl(note.publicId ?? ''), true),
        }
      : {
          label: t('actions.share'),
          icon: ShareIcon,
          onSelect: () => {
            setSharePanel(true);
            void actions.share();
          },
        },
    'separator',
    {
      label: t('actions.delete'),
      icon: TrashIcon,
      danger: true,
      onSelect: () => void actions.remove(),
    },
  ];

  const when = note.updatedAt > note.createdAt ? note.updatedAt : note.createdAt;
  return (
    <li>
      <article
        className={note.isPinned ? 'note-card note-card-pinned' : 'note-card'}
        aria-labelledby={titleId}
        aria-busy={actions.busy}
      >
        <div className="note-card-head">
          <h3 id={titleId} className="note-card-title">
            {note.isPinned ? (
              <PinIcon
                className="ui-icon note-card-pin"
                role="img"
                aria-label={t('common.pinned')}
              />
            ) : null}
            <Link className="note-title-link" to={`/notes/${note.id}`}>
              {highlights?.title ? (
                <Highlighted html={highlights.title} />
              ) : (
                note.title || t('common.untitled')
              )}
            </Link>
          </h3>
          <Menu
            label={t('actions.menu', { title: note.title || t('common.untitled') })}
            icon={EllipsisIcon}
            look={{ size: 'sm', className: 'note-card-menu' }}
            entries={entries}
          />
        </div>
        {note.capture && note.capture.status !== 'ready' ? (
          <Suspense fallback={null}>
            <CaptureStatus note={note} api={api} onChanged={onChanged} />
          </Suspense>
        ) : null}
        <CardBody note={note} onToggleTask={toggle} />
        {note.images.length > 0 ? (
          <NoteThumbs api={api} urls={note.images} title={note.title} />
        ) : null}
        <div className="note-card-foot">
          <time dateTime={when} title={formatDate(when, i18n.language)}>
            {relativeDate(when, i18n.language, t('common.justNow'))}
          </time>
          <PendingBadge noteId={note.id} />
          {note.publicId ? (
            <button
              type="button"
              className="ui-badge ui-badge-accent note-card-shared"
              aria-expanded={sharePanel}
              onClick={() => setSharePanel((open) => !open)}
            >
              <LinkIcon className="ui-icon" aria-hidden="true" />
              {t('list.shared')}
            </button>
          ) : null}
          {note.tags.length > 0 ? (
            <ul className="note-card-tags" aria-label={t('common.tags')}>
              {note.tags.map((tag) => (
                <li key={tag}>
                  <button
                    type="button"
                    className="ui-chip"
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
        {sharePanel && note.publicId ? <NoteActionPanels note={note} actions={actions} /> : null}
        {!sharePanel && actions.error ? (
          <p className="note-error" role="alert">
            {actions.error}
          </p>
        ) : null}
        {taskError ? (
          <p className="note-error" role="alert">
            {taskError}
          </p>
        ) : null}
      </article>
    </li>
  );
}
