import type { LinkedNote, NoteLinks, SearchHit } from '@noted/api';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { useDebounced } from '../useDebounced';
import { Button, Dialog, FileTextIcon, LinkIcon, SearchInput, XIcon } from '@noted/ui';
import { Loading } from '../LoadStatus';

const SEARCH_DELAY_MS = 250;
const RESULTS = 8;

type Found = { query: string; notes: SearchHit[] } | { query: string; error: unknown };

export interface LinksDialogProps {
  api: NotesApi;
  noteId: string;
  links: NoteLinks | undefined;
  onLinksChanged: (links: NoteLinks) => void;
  onClose: () => void;
}

/** The links of this note, the manual ones removable, and a search to link another note. */
export function LinksDialog({ api, noteId, links, onLinksChanged, onClose }: LinksDialogProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const titleOf = (note: { title: string }) => note.title || t('common.untitled');
  const searchId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const [found, setFound] = useState<Found>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!query) return;
    const controller = new AbortController();
    api.notes.list({ search: query, limit: RESULTS }, { signal: controller.signal }).then(
      (page) => setFound({ query, notes: page.items.filter((note) => note.id !== noteId) }),
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        log.error('Finding notes to link failed.', failure);
        setFound({ query, error: failure });
      },
    );
    return () => controller.abort();
  }, [api, noteId, query]);

  const change = async (action: () => Promise<NoteLinks>) => {
    setBusy(true);
    setError(undefined);
    try {
      onLinksChanged(await action());
    } catch (failure) {
      log.error('Changing a link failed.', failure);
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  const add = (target: { id: string }) => change(() => api.links.add(noteId, target.id));
  const remove = (target: LinkedNote) => change(() => api.links.remove(noteId, target.id));
  const linkedByHand = new Set(
    links?.outgoing.filter((link) => link.kind === 'manual').map((link) => link.id),
  );

  let results = null;
  if (!query) {
    results = <p className="ui-hint">{t('links.hint')}</p>;
  } else if (!found || found.query !== query) {
    results = <Loading lines={2}>{t('links.searching')}</Loading>;
  } else if ('error' in found) {
    results = (
      <p className="note-error" role="alert">
        {t('links.searchFailed', { reason: errorText(found.error) })}
      </p>
    );
  } else if (found.notes.length === 0) {
    results = <p className="ui-hint">{t('links.noMatch', { query })}</p>;
  } else {
    results = (
      <ul className="note-link-list" aria-label={t('links.found')}>
        {found.notes.map((note) => (
          <li key={note.id}>
            <FileTextIcon className="ui-icon" aria-hidden="true" />
            <span className="note-link-title">{titleOf(note)}</span>
            {linkedByHand.has(note.id) ? (
              <span className="ui-badge ui-badge-accent">{t('links.linked')}</span>
            ) : (
              <Button
                size="sm"
                icon={LinkIcon}
                disabled={busy}
                aria-label={t('links.linkLabel', { title: titleOf(note) })}
                onClick={() => void add(note)}
              >
                {t('links.link')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Dialog
      title={t('links.title')}
      className="notes-links-dialog"
      onClose={onClose}
      initialFocus={searchRef}
    >
      <section className="note-links-out" aria-labelledby={`${searchId}-out`}>
        <h3 id={`${searchId}-out`}>{t('links.outgoing')}</h3>
        {!links ? (
          <Loading lines={2}>{t('links.loading')}</Loading>
        ) : links.outgoing.length === 0 ? (
          <p className="ui-hint">{t('links.none')}</p>
        ) : (
          <ul className="note-link-list">
            {links.outgoing.map((link) => (
              <li key={`${link.id}-${link.kind}`}>
                <FileTextIcon className="ui-icon" aria-hidden="true" />
                <Link className="note-link-title" to={`/notes/${link.id}`}>
                  {titleOf(link)}
                </Link>
                <span className="ui-badge">
                  {link.kind === 'wiki' ? t('links.wiki') : t('links.manual')}
                </span>
                {link.kind === 'manual' ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={XIcon}
                    disabled={busy}
                    aria-label={t('links.removeLabel', { title: titleOf(link) })}
                    onClick={() => void remove(link)}
                  >
                    {t('links.remove')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {error ? (
        <p className="note-error" role="alert">
          {error}
        </p>
      ) : null}
      <section className="note-links-find">
        <label htmlFor={searchId} className="ui-label">
          {t('links.find')}
        </label>
        <SearchInput
          ref={searchRef}
          id={searchId}
          maxLength={200}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        {results}
      </section>
    </Dialog>
  );
}
