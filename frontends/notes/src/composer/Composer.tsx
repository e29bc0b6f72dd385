import { hashTags, type Note } from '@noted/api';
import { Button, IconButton, ImagePlusIcon, XIcon } from '@noted/ui';
import { useEffect, useId, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import type {
  ChangeEvent,
  ClipboardEvent,
  DragEvent,
  FormEvent,
  KeyboardEvent,
  ReactNode,
  Ref,
} from 'react';
import type { NotesApi } from '../api';
import { prepareUpload, UPLOAD_MAX_BYTES, type Compressor } from '../images/compress';
import { log } from '../log';
import { useErrorText, useNotesMessages } from '../messages';
import { errorCode } from '../text';
import './composer.css';

export interface ComposerProps {
  api: Pick<NotesApi, 'notes' | 'images'>;
  onCreated: (note: Note) => void;
  /** Lets the page focus the composer ("New note", the n key). */
  ref?: Ref<ComposerHandle>;
  /** Makes an image smaller before it is sent; browser-image-compression unless given. */
  compress?: Compressor;
  /** More ways to make a note, beside the image button (the Capture menu). */
  tools?: ReactNode;
}

export interface ComposerHandle {
  /** Puts the cursor in the body, ready to write. */
  focus: () => void;
}

interface Attachment {
  id: number;
  file: File;
  previewUrl: string;
}

/** How tall the body may grow before it scrolls. */
const BODY_MAX_HEIGHT = 0.5;

let attachmentSequence = 0;

const imageFiles = (files: FileList | File[]) =>
  [...files].filter((file) => file.type.startsWith('image/'));

/**
 * The quick composer at the top of the list: a title, a body that grows as it is written,
 * `#tags` in the text (shown as they are typed), images pasted, dropped or picked, and
 * Ctrl/⌘+Enter to save. After saving it is empty again with the body focused, ready for the
 * next thought.
 */
export function Composer({ api, onCreated, ref, compress, tools }: ComposerProps) {
  const { t } = useNotesMessages('note');
  const errorText = useErrorText();
  const id = useId();
  const ownBodyRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [saving, setSaving] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const errorId = `${id}-error`;
  const tags = hashTags(`${title}\n${body}`);
  const expanded = Boolean(title || body || attachments.length > 0);

  useImperativeHandle(ref, () => ({ focus: () => ownBodyRef.current?.focus() }), []);

  // The body grows with its text, up to half the window, then scrolls.
  useLayoutEffect(() => {
    const field = ownBodyRef.current;
    if (!field) return;
    field.style.height = 'auto';
    const limit = Math.round(window.innerHeight * BODY_MAX_HEIGHT);
    field.style.height = `${Math.min(field.scrollHeight + 2, limit)}px`;
  }, [body]);

  // Previews of attached images live as long as the attachment.
  const attachmentsRef = useRef(attachments);
  useEffect(() => {
    attachmentsRef.current = attachments;
  }, [attachments]);
  useEffect(
    () => () => {
      for (const attachment of attachmentsRef.current) URL.revokeObjectURL(attachment.previewUrl);
    },
    [],
  );

  const attach = (files: File[]) => {
    const images = imageFiles(files);
    if (images.length < files.length) setError(t('images.notAnImage'));
    if (images.length === 0) return;
    setAttachments((current) => [
      ...current,
      ...images.map((file) => {
        attachmentSequence += 1;
        return { id: attachmentSequence, file, previewUrl: URL.createObjectURL(file) };
      }),
    ]);
  };

  const detach = (attachment: Attachment) => {
    URL.revokeObjectURL(attachment.previewUrl);
    setAttachments((current) => current.filter((item) => item.id !== attachment.id));
  };

  /** Sends the images one by one; the answer of each is the note with every image so far. */
  const uploadAll = async (note: Note, files: Attachment[]) => {
    let current = note;
    for (const { file } of files) {
      const blob = await prepareUpload(file, compress);
      if (blob.size > UPLOAD_MAX_BYTES) throw new Error(t('images.tooLarge'));
      current = (await api.images.upload(note.id, blob, file.name || 'image')).note;
    }
    return current;
  };

  const submit = async () => {
    if (saving) return;
    setSaved(undefined);
    if (!title.trim() && !body.trim()) {
      setError(t('form.empty'));
      return;
    }
    setSaving(true);
    setError(undefined);
    let created: Note | undefined;
    try {
      created = await api.notes.create({ title: title.trim(), note: body, tags });
      const withImages = attachments.length > 0 ? await uploadAll(created, attachments) : created;
      for (const attachment of attachments) URL.revokeObjectURL(attachment.previewUrl);
      setTitle('');
      setBody('');
      setAttachments([]);
      setSaved(t('form.saved', { title: withImages.title || t('common.untitled') }));
      onCreated(withImages);
      ownBodyRef.current?.focus();
    } catch (caught) {
      if (created) {
        // The note is saved; only (some of) its images are not. Keep nothing twice.
        log.error('Adding an image to a new note failed.', caught);
        setTitle('');
        setBody('');
        setAttachments([]);
        onCreated(created);
        setError(t('form.imagesFailed', { reason: errorText(caught) }));
      } else if (['VALIDATION_FAILED', 'UNPROCESSABLE'].includes(errorCode(caught) ?? '')) {
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

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape') {
      event.currentTarget.blur();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = imageFiles(event.clipboardData.files);
    if (images.length === 0) return;
    event.preventDefault();
    attach(images);
  };

  const onDragOver = (event: DragEvent<HTMLFormElement>) => {
    if (![...event.dataTransfer.types].includes('Files')) return;
    event.preventDefault();
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    setDragging(false);
    attach([...event.dataTransfer.files]);
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) attach(files);
  };

  const describedBy = error ? errorId : undefined;
  const classes = ['composer', expanded ? 'composer-expanded' : '', dragging ? 'composer-drop' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <form
      className={classes}
      onSubmit={onSubmit}
      aria-labelledby={`${id}-heading`}
      noValidate
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id={`${id}-heading`} className="visually-hidden">
        {t('form.heading')}
      </h2>
      <input
        id={`${id}-title`}
        className="composer-title"
        name="title"
        type="text"
        maxLength={500}
        autoComplete="off"
        placeholder={t('form.titlePlaceholder')}
        aria-label={t('form.title')}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      <textarea
        ref={ownBodyRef}
        id={`${id}-body`}
        className="composer-body"
        name="note"
        rows={2}
        placeholder={t('form.bodyPlaceholder')}
        aria-label={t('form.body')}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        value={body}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-tags`, describedBy].filter(Boolean).join(' ')}
      />
      <div id={`${id}-tags`} className="composer-tags" aria-live="polite">
        {tags.length > 0 ? (
          <>
            <span className="visually-hidden">{t('form.tagsFound')}</span>
            <ul className="composer-tag-list">
              {tags.map((tag) => (
                <li key={tag} className="ui-chip">
                  #{tag}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
      {attachments.length > 0 ? (
        <ul className="composer-images" aria-label={t('form.images')}>
          {attachments.map((attachment, index) => (
            <li key={attachment.id} className="composer-image">
              <img src={attachment.previewUrl} alt={t('images.image.alt', { number: index + 1 })} />
              <IconButton
                label={t('form.removeImage', { number: index + 1 })}
                icon={XIcon}
                size="sm"
                variant="secondary"
                className="composer-image-remove"
                onClick={() => detach(attachment)}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={errorId} className="composer-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="composer-bar">
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          multiple
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={onPick}
        />
        <IconButton
          label={t('form.addImages')}
          icon={ImagePlusIcon}
          onClick={() => fileRef.current?.click()}
        />
        {tools}
        <span className="composer-status" role="status">
          {saved}
        </span>
        <span className="composer-hint" aria-hidden="true">
          <kbd className="ui-kbd">Ctrl</kbd>
          <kbd className="ui-kbd">↵</kbd>
        </span>
        <Button type="submit" variant="primary" size="sm" loading={saving}>
          {saving ? t('form.saving') : t('form.add')}
        </Button>
      </div>
    </form>
  );
}
