import type { ApiClient, PublicNote } from '@noted/api';
import {
  Button,
  Callout,
  EmptyState,
  GlobeIcon,
  LockIcon,
  RefreshIcon,
  ShellContext,
  TagChips,
  buttonClass,
  useShell,
  type ShellServices,
} from '@noted/ui';
import { Suspense, useEffect, useState } from 'react';
import { I18nextProvider, Trans } from 'react-i18next';
import { Loading } from './LoadStatus';
import { log } from './log';
import { useErrorText, useNotesMessages } from './messages';
import { MarkdownPreview } from './note/MarkdownPreview';
import { errorCode, formatDate } from './text';
import './notes.css';

/** Props of the module exposed as './SharedNote': the page at /notes/s/:publicId. */
export interface SharedNoteProps {
  api: Pick<ApiClient, 'public'>;
  publicId: string;
  shell: ShellServices;
}

type Loaded = { note: PublicNote } | { missing: true } | { error: unknown };

const isMissing = (error: unknown) => {
  const code = errorCode(error);
  return code === 'NOT_FOUND' || code === 'VALIDATION_FAILED';
};

/** The shared note's images; their addresses are public while the note is shared. */
function SharedImages({ note }: { note: PublicNote }) {
  const shell = useShell();
  const { t } = useNotesMessages('note');
  if (note.images.length === 0) return null;
  return (
    <ul className="shared-note-images" aria-label={t('shared.images')}>
      {note.images.map((url, index) => {
        const number = index + 1;
        const title = note.title
          ? t('shared.imageTitle', { number, title: note.title })
          : t('shared.imageTitleUntitled', { number });
        return (
          <li key={url}>
            <button
              type="button"
              className="shared-note-image"
              aria-label={t('shared.openImage', { number })}
              onClick={() => shell.previewImage(url, { title })}
            >
              <img src={url} alt={title} loading="lazy" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function SharedNoteView({ api, publicId }: Omit<SharedNoteProps, 'shell'>) {
  const { t, i18n } = useNotesMessages('note');
  const errorText = useErrorText();
  const [loaded, setLoaded] = useState<Loaded>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    api.public.note(publicId).then(
      (note) => {
        if (active) setLoaded({ note });
      },
      (error: unknown) => {
        if (!active) return;
        if (isMissing(error)) {
          setLoaded({ missing: true });
          return;
        }
        log.error('Loading the shared note failed.', error);
        setLoaded({ error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, publicId, attempt]);

  if (!loaded) {
    return (
      <div className="shared-note">
        <Loading lines={6}>{t('shared.loading')}</Loading>
      </div>
    );
  }
  if ('missing' in loaded) {
    return (
      <div className="shared-note">
        <EmptyState icon={LockIcon} title={t('shared.missing')} level={2}>
          {t('shared.missingReason')}
        </EmptyState>
      </div>
    );
  }
  if ('error' in loaded) {
    return (
      <div className="shared-note">
        <Callout
          tone="danger"
          role="alert"
          actions={
            <Button
              size="sm"
              icon={RefreshIcon}
              onClick={() => {
                setLoaded(undefined);
                setAttempt((n) => n + 1);
              }}
            >
              {t('shared.tryAgain')}
            </Button>
          }
        >
          {t('shared.loadFailed', { reason: errorText(loaded.error) })}
        </Callout>
      </div>
    );
  }
  const { note } = loaded;
  return (
    <article className="shared-note" aria-labelledby="shared-note-title">
      <header className="shared-note-head">
        <p className="shared-note-kicker">
          <GlobeIcon className="ui-icon" aria-hidden="true" />
          {t('shared.kicker')}
        </p>
        <h1 id="shared-note-title">{note.title || t('common.untitled')}</h1>
        <div className="note-meta">
          <Trans
            t={t}
            i18nKey="common.updated"
            values={{ date: formatDate(note.updatedAt, i18n.language) }}
            components={{ time: <time dateTime={note.updatedAt} /> }}
          />
          <TagChips tags={note.tags} label={t('common.tags')} />
        </div>
      </header>
      <MarkdownPreview body={note.note} />
      <SharedImages note={note} />
      <footer className="shared-note-foot">
        <p>{t('shared.madeWith')}</p>
        <a className={buttonClass({ size: 'sm' })} href="/">
          {t('shared.startYourOwn')}
        </a>
      </footer>
    </article>
  );
}

/** A note someone shared: readable without an account, nothing to edit. */
export function SharedNote({ shell, ...props }: SharedNoteProps) {
  return (
    // As in NotesApp: the shell's instance is given here, not trusted to cross the boundary.
    <I18nextProvider i18n={shell.i18n}>
      <ShellContext.Provider value={shell}>
        {/* Until the notes words have come (one small file) there is nothing to say. */}
        <Suspense fallback={null}>
          <SharedNoteView {...props} />
        </Suspense>
      </ShellContext.Provider>
    </I18nextProvider>
  );
}

export default SharedNote;
