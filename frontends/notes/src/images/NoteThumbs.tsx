import { useShell } from '@noted/ui';
import type { NotesApi } from '../api';
import { useNotesMessages } from '../messages';
import { useNoteImage } from './useNoteImage';

/** Thumbnails shown on a card; the rest are counted on the last one. */
const SHOWN = 4;

function Thumb({
  api,
  url,
  number,
  more,
  title,
}: {
  api: Pick<NotesApi, 'images'>;
  url: string;
  number: number;
  more: number;
  title: string;
}) {
  const shell = useShell();
  const { t } = useNotesMessages('note');
  const image = useNoteImage(api, url);
  const alt = t('images.image.alt', { number });
  return (
    <li className="note-thumb">
      {image.status === 'shown' ? (
        <button
          type="button"
          className="note-thumb-open"
          aria-label={t('images.image.openOf', { number, title })}
          onClick={() => shell.previewImage(image.objectUrl, { title: alt })}
        >
          <img src={image.objectUrl} alt={alt} loading="lazy" />
          {more > 0 ? (
            <span className="note-thumb-more" aria-hidden="true">
              +{more}
            </span>
          ) : null}
        </button>
      ) : (
        <span
          className={
            image.status === 'failed' ? 'note-thumb-failed' : 'note-thumb-loading ui-shimmer'
          }
          aria-hidden="true"
        />
      )}
    </li>
  );
}

/** A note's images as small thumbnails on its card; each opens the full-screen preview. */
export function NoteThumbs({
  api,
  urls,
  title,
}: {
  api: Pick<NotesApi, 'images'>;
  urls: string[];
  title: string;
}) {
  const { t } = useNotesMessages('note');
  const shown = urls.slice(0, SHOWN);
  return (
    <ul className="note-thumbs" aria-label={t('images.heading')}>
      {shown.map((url, index) => (
        <Thumb
          key={url}
          api={api}
          url={url}
          number={index + 1}
          more={index === shown.length - 1 ? urls.length - shown.length : 0}
          title={title || t('common.untitled')}
        />
      ))}
    </ul>
  );
}
