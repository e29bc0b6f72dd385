import type { Note } from '@noted/api';
import { useShell } from '@noted/ui';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, DragEvent } from 'react';
import type { NotesApi } from '../api';
import { log } from '../log';
import { errorMessage } from '../text';
import { prepareUpload, UPLOAD_MAX_BYTES, type Compressor } from './compress';
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

interface Upload {
  id: number;
  name: string;
  status: UploadStatus;
  message?: string;
}

const statusText: Record<Exclude<UploadStatus, 'error'>, string> = {
  waiting: 'Waiting…',
  compressing: 'Compressing…',
  uploading: 'Uploading…',
};

/** What the server answers for other files, said before anything is sent. */
const NOT_AN_IMAGE = 'The file given is not an image';

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

let uploadSequence = 0;

/** The images of a note: a gallery with preview and removal, and uploads (picked or dropped). */
export function NoteImages({ api, note, onChanged, compress }: NoteImagesProps) {
  const shell = useShell();
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
        update(id, { status: 'error', message: 'The image is larger than 10 MB' });
        return;
      }
      update(id, { status: 'uploading' });
      const result = await api.images.upload(noteId, blob, file.name || 'image');
      setUploads((current) => current.filter((u) => u.id !== id));
      onChanged(result.note);
    } catch (failure) {
      log.error('Uploading an image failed.', failure);
      update(id, { status: 'error', message: errorMessage(failure) });
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
          name: file.name || 'image',
          status: known ? 'waiting' : 'error',
          ...(known ? {} : { message: NOT_AN_IMAGE }),
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
      title: `Remove image ${number}?`,
      message: 'The image is taken off the note and deleted.',
      confirmLabel: 'Remove',
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
      setError(`The image could not be removed: ${errorMessage(failure)}`);
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
        <h2 id={headingId}>Images</h2>
        <div className="note-images-add">
          <input
            id={inputId}
            className="note-images-input"
            type="file"
            accept="image/*"
            multiple
            onChange={onPick}
          />
          <label htmlFor={inputId} className="note-images-button">
            Add image
          </label>
          <span className="note-images-hint">or drop images here</span>
        </div>
      </div>

      {note.images.length === 0 ? (
        <p className="note-images-empty">No images yet.</p>
      ) : (
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
          <ul className="note-images-uploads" aria-label="Uploads">
            {uploads.map((upload) => (
              <li key={upload.id} className={upload.status === 'error' ? 'note-images-failed' : ''}>
                <span className="note-images-file">{upload.name}</span>{' '}
                {upload.status === 'error' ? (
                  <>
                    <span>{upload.message}</span>{' '}
                    <button
                      type="button"
                      className="note-images-link"
                      onClick={() =>
                        setUploads((current) => current.filter((u) => u.id !== upload.id))
                      }
                      aria-label={`Dismiss the error of ${upload.name}`}
                    >
                      Dismiss
                    </button>
                  </>
                ) : (
                  <span>{statusText[upload.status]}</span>
                )}
              </li>
            ))}
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

type Loaded = { key: string; objectUrl: string } | { key: string; error: unknown };

/** One image of the gallery, read with the bearer token and shown through an object URL. */
function GalleryImage({ api, url, number, removing, onRemove }: GalleryImageProps) {
  const shell = useShell();
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>();
  const key = `${url}#${attempt}`;
  const current = loaded?.key === key ? loaded : undefined;

  useEffect(() => {
    let active = true;
    let objectUrl: string | undefined;
    api.images.read(url).then(
      (blob) => {
        if (!active) return;
        objectUrl = URL.createObjectURL(blob);
        setLoaded({ key, objectUrl });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading a note image failed.', error);
        setLoaded({ key, error });
      },
    );
    return () => {
      active = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [api, url, key]);

  return (
    <li className="note-image">
      {current === undefined ? (
        <div className="note-image-tile note-image-loading" role="status">
          Loading image {number}…
        </div>
      ) : 'error' in current ? (
        <div className="note-image-tile note-image-failed" role="alert">
          <span>
            Image {number} could not be loaded: {errorMessage(current.error)}
          </span>
          <button
            type="button"
            className="note-images-link"
            onClick={() => setAttempt((n) => n + 1)}
            aria-label={`Retry image ${number}`}
          >
            Retry
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="note-image-tile note-image-open"
          aria-label={`Open image ${number}`}
          onClick={() => shell.previewImage(current.objectUrl, { title: `Note image ${number}` })}
        >
          <img src={current.objectUrl} alt={`Note image ${number}`} loading="lazy" />
        </button>
      )}

      <button type="button" className="note-images-link" onClick={onRemove} disabled={removing}>
        {removing ? `Removing image ${number}…` : `Remove image ${number}`}
      </button>
    </li>
  );
}
