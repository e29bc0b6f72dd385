import type { AiHitList } from '@noted/api';
import { EmptyState, SearchXIcon, SparklesIcon } from '@noted/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../api';
import { Loading } from '../LoadStatus';
import { useNotesMessages } from '../messages';
import { AiNotice } from './AiNotice';
import './ai.css';
import { AddressedSwitch } from '../AddressedSwitch';

const MEANING_LIMIT = 10;

type Found = { key: string; hits: AiHitList } | { key: string; error: unknown };

interface MeaningFoundProps {
  api: Pick<NotesApi, 'ai'>;
  query: string;
  /** How many notes were found (undefined while searching, or when the search failed). */
  onCount?: (count: number | undefined) => void;
}

function MeaningResults({ api, query, onCount }: MeaningFoundProps) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const [attempt, setAttempt] = useState(0);
  const [found, setFound] = useState<Found>();
  const key = `${query}:${attempt}`;

  // Each new search cancels the one still on its way.
  useEffect(() => {
    const controller = new AbortController();
    api.ai.search({ query, limit: MEANING_LIMIT }, { signal: controller.signal }).then(
      (hits) => setFound({ key, hits }),
      (error: unknown) => {
        if (!controller.signal.aborted) setFound({ key, error });
      },
    );
    return () => controller.abort();
  }, [api, query, key]);

  const loading = found?.key !== key;
  // Notes listed only as the nearest (none is clearly about the query) are not counted as found.
  const count =
    !loading && found && !('error' in found)
      ? found.hits.items.filter((hit) => !hit.nearest).length
      : undefined;
  const reported = useRef(onCount);
  useEffect(() => {
    reported.current = onCount;
  });
  useEffect(() => {
    reported.current?.(count);
  }, [count]);
  useEffect(() => () => reported.current?.(undefined), []);
  let content;
  if (!found) {
    content = <Loading lines={3}>{t('meaning.loading')}</Loading>;
  } else if ('error' in found) {
    content = <AiNotice error={found.error} onRetry={() => setAttempt((n) => n + 1)} />;
  } else if (found.hits.items.length === 0) {
    content = (
      <EmptyState icon={SearchXIcon} title={t('meaning.empty', { query })} level={3}>
        {t('meaning.emptyHelp')}
      </EmptyState>
    );
  } else {
    const nearest = found.hits.items.every((hit) => hit.nearest);
    content = (
      <>
        {nearest ? <p className="ai-nearest">{t('meaning.nearest', { query })}</p> : null}
        <ol className="ai-hits">
          {found.hits.items.map(({ note, sources }) => (
            <li key={note.id} className="ai-hit">
              <div className="ai-hit-head">
                <Link to={`/notes/${note.id}`} className="ai-hit-title">
                  {note.title || t('common.untitled')}
                </Link>
                <ul className="ai-sources" aria-label={t('meaning.foundBy')}>
                  {sources.map((source) => (
                    <li
                      key={source}
                      className={source === 'semantic' ? 'ui-badge ui-badge-accent' : 'ui-badge'}
                      data-source={source}
                    >
                      {t(`meaning.source.${source}`)}
                    </li>
                  ))}
                </ul>
              </div>
              {note.snippet ? <p className="ai-hit-snippet">{note.snippet}</p> : null}
            </li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <section
      className="ai-meaning-results ai-panel ui-card"
      aria-labelledby={headingId}
      aria-busy={loading}
    >
      <div className="ai-panel-head">
        <SparklesIcon className="ui-icon ai-panel-icon" aria-hidden="true" />
        <h3 id={headingId} className="ai-panel-title">
          {t('meaning.heading')}
        </h3>
      </div>
      {content}
    </section>
  );
}

export interface MeaningToggleProps {
  enabled: boolean;
  onToggle: (enabled: boolean) => void;
}

/** The "Search by meaning" switch, beside the list's other filters. */
export function MeaningToggle({ enabled, onToggle }: MeaningToggleProps) {
  const { t } = useNotesMessages('ai');
  return (
    <AddressedSwitch on={enabled} onChange={onToggle} className="ai-meaning-toggle">
      <SparklesIcon className="ui-icon" aria-hidden="true" />
      {t('meaning.toggle')}
    </AddressedSwitch>
  );
}

/**
 * Notes found by what they are about, ranked together with the full-text matches, best
 * first: while search by meaning is on, they are the list's results (and until words are
 * typed, it asks for some above the list).
 */
export function MeaningFound(props: MeaningFoundProps) {
  const { t } = useNotesMessages('ai');
  if (!props.query) return <p className="ai-hint">{t('meaning.hint')}</p>;
  return <MeaningResults {...props} />;
}
