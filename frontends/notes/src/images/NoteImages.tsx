import type { Note } from '@noted/api';
import { IconButton, ImagePlusIcon, TrashIcon, buttonClass, useShell } from '@noted/ui';
import { useId, useRef, useState } from 'react';
import type { ChangeEvent, DragEvent } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { prepareUpload, UPLOAD_MAX_BYTES, type Compressor } from './compress';
import { useNoteImage } from './useNoteImage';
import './images.css';

export interface NoteImagesProps {
  api: Pick<NotesApi, 'images'>;
  note: Note;
  /** The note after an image was added or removed. */
  onChanged: (note: Note) => void;
  /** Makes a file smaller before it is sent; browser-image-compression unless given. */
  compress?: Compressor;
}

type UploadStatus = 'waiting' | 'compressing' | 'uploading' | 'error';

/**
 * Why an upload failed: a file that is no image (what the server would answer, said before
 * anything is sent), one too large after compression, or what the upload answered.
 */
type UploadFailure = 'notAnImage' | 'tooLarge' | { error: unknown };

interface Upload {
  id: number;
  name: string;
  status: UploadStatus;
  failure?: UploadFailure;
}

const statusKeys = {
  waiting: 'images.status.waiting',
  compressing: 'images.status.compressing',
  uploading: 'images.status.uploading',
} as const satisfies Record<Exclude<UploadStatus, 'error'>, string>;

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

let uploadSequence = 0;

/** The images of a note: a gallery with preview and removal, and uploads (picked or dropped). */
export function NoteImages({ api, note, onChanged, compress }: NoteImagesProps) {
  const shell = useShell();
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const inputId = useId();
  const headingId = useId();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [removing, setRemoving] = useState<string>();
  const [error, setError] = useState<string>();
  const queue = useRef<Promise<void>>(Promise.resolve());
  const noteId = note.id;

  const update = (id: number, patch: Partial<Upload>) =>
    setUploads((current) => current.map((u) => (u.id === id ? { ...u, ...patch } : u)));

  const uploadOne = async (id: number, file: File) => {
    try {
      update(id, { status: 'compressing' });
      const blob = await prepareUpload(file, compress);
      if (blob.size > UPLOAD_MAX_BYTES) {
        update(id, { status: 'error', failure: 'tooLarge' });
        return;
      }
      update(id, { status: 'uploading' });
      const result = await api.images.upload(noteId, blob, file.name || 'image');
      setUploads((current) => current.filter((u) => u.id !== id));
      onChanged(result.note);
    } catch (failure) {
      log.error('Uploading an image failed.', failure);
      update(id, { status: 'error', failure: { error: failure } });
    }
  };

  const addFiles = (files: File[]) => {
    const added = files.map((file) => {
      uploadSequence += 1;
      const known = file.type === '' || file.type.startsWith('image/');
      return {
        file,
        upload: {
          id: uploadSequence,
          name: file.name,
          status: known ? 'waiting' : 'error',
          ...(known ? {} : { failure: 'notAnImage' }),
        } satisfies Upload,
      };
    });
    setUploads((current) => [...current, ...added.map((a) => a.upload)]);
    // One at a time, so each answer is the note with every image before it.
    for (const { file, upload } of added) {
      if (upload.status === 'error') continue;
      queue.current = queue.current.then(() => uploadOne(upload.id, file));
    }
  };

  const failureText = (failure: UploadFailure | undefined) => {
    if (failure === 'notAnImage') return t('images.notAnImage');
    if (failure === 'tooLarge') return t('images.tooLarge');
    return errorText(failure?.error);
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) addFiles(files);
  };

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const onDragLeave = (event: DragEvent<HTMLElement>) => {
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) {
      return;
    }
    setDragging(false);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) addFiles(files);
  };

  const remove = async (url: string, number: number) => {
    const confirmed = await shell.confirm({
      title: t('images.confirmRemove.title', { number }),
      message: t('images.confirmRemove.message'),
      confirmLabel: t('images.confirmRemove.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    setRemoving(url);
    setError(undefined);
    try {
      const changed = await api.images.remove(noteId, url);
      onChanged(changed);
    } catch (failure) {
      log.error('Removing an image failed.', failure);
      setError(t('images.removeFailed', { reason: errorText(failure) }));
    } finally {
      setRemoving(undefined);
    }
  };

  return (
    <section
      className={dragging ? 'note-images note-images-dragging' : 'note-images'}
      aria-labelledby={headingId}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <div className="note-images-head">
        <h2 id={headingId}>{t('images.heading')}</h2>
        <div className="note-images-add">
          <input
            id={inputId}
            className="note-images-input"
            type="file"
            accept="image/*"
            multiple
            onChange={onPick}
          />
          <label htmlFor={inputId} className={buttonClass({ size: 'sm' })}>
            <ImagePlusIcon className="ui-icon" aria-hidden="true" />
            {t('images.add')}
          </label>
          <span className="note-images-hint">{t('images.dropHint')}</span>
        </div>
      </div>

      {note.images.length === 0 ? null : (
        <ul className="note-images-grid">
          {note.images.map((url, index) => (
            <GalleryImage
              key={url}
              api={api}
              url={url}
              number={index + 1}
              removing={removing === url}
              onRemove={() => void remove(url, index + 1)}
            />
          ))}
        </ul>
      )}

      {error ? (
        <p className="note-images-error" role="alert">
          {error}
        </p>
      ) : null}

      <div aria-live="polite">
        {uploads.length > 0 ? (
          <ul className="note-images-uploads" aria-label={t('images.uploads')}>
            {uploads.map((upload) => {
              const name = upload.name || t('images.unnamedFile');
              return (
                <li
                  key={upload.id}
                  className={upload.status === 'error' ? 'note-images-failed' : ''}
                >
                  <span className="note-images-file">{name}</span>{' '}
                  {upload.status === 'error' ? (
                    <>
                      <span>{failureText(upload.failure)}</span>{' '}
                      <button
                        type="button"
                        className="note-images-link"
                        onClick={() =>
                          setUploads((current) => current.filter((u) => u.id !== upload.id))
                        }
                        aria-label={t('images.dismissLabel', { name })}
                      >
                        {t('common.dismiss')}
                      </button>
                    </>
                  ) : (
                    <span>{t(statusKeys[upload.status])}</span>
                  )}
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

interface GalleryImageProps {
  api: Pick<NotesApi, 'images'>;
  url: string;
  number: number;
  removing: boolean;
  onRemove: () => void;
}

/** One image of the gallery, read with the bearer token and shown through an object URL. */
function GalleryImage({ api, url, number, removing, onRemove }: GalleryImageProps) {
  const shell = useShell();
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const [attempt, setAttempt] = useState(0);
  const image = useNoteImage(api, url, attempt);

  return (
    <li className="note-image">
      {image.status === 'loading' ? (
        <div className="note-image-tile note-image-loading ui-shimmer" role="status">
          {t('images.image.loading', { number })}
        </div>
      ) : image.status === 'failed' ? (
        <div className="note-image-tile note-image-failed" role="alert">
          <span>{t('images.image.loadFailed', { number, reason: errorText(image.error) })}</span>
          <button
            type="button"
            className="note-images-link"
            onClick={() => setAttempt((n) => n + 1)}
            aria-label={t('images.image.retry', { number })}
          >
            {t('common.retry')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="note-image-tile note-image-open"
          aria-label={t('images.image.open', { number })}
          onClick={() =>
            shell.previewImage(image.objectUrl, { title: t('images.image.alt', { number }) })
          }
        >
          <img src={image.objectUrl} alt={t('images.image.alt', { number })} loading="lazy" />
        </button>
      )}

      <IconButton
        className="note-image-remove"
        variant="secondary"
        size="sm"
        icon={TrashIcon}
        label={
          removing ? t('images.image.removing', { number }) : t('images.image.remove', { number })
        }
        onClick={onRemove}
        disabled={removing}
      />
    </li>
  );
}
