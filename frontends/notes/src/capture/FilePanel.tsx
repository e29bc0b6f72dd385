import { Button, CameraIcon, FileAudioIcon, FileTextIcon, type IconComponent } from '@noted/ui';
import { useId, useState } from 'react';
import type { ChangeEvent, ClipboardEvent, DragEvent, FormEvent, RefObject } from 'react';
import { useNotesMessages } from '../messages';
import { captureAccept, fileProblem, type CaptureFileKind } from './captureFiles';
import { formatBytes } from './format';
import type { CaptureStage, PanelProps, SendCapture } from './panel';
import { useBlobSource } from './useBlobSource';

const fileIcons: Record<CaptureFileKind, IconComponent> = {
  image: CameraIcon,
  audio: FileAudioIcon,
  pdf: FileTextIcon,
};

/** An image chosen, shown small while it lives in the dialog. */
function ImagePreview({ file, alt }: { file: File; alt: string }) {
  const ref = useBlobSource<HTMLImageElement>(file);
  return <img ref={ref} className="capture-image-preview" alt={alt} />;
}

/** Choosing a file (also dropped or, for images, pasted), checked here before it is sent. */
export function FilePanel({
  kind,
  hint,
  send,
  busy,
  onCreate,
  onCancel,
  onEdit,
  status,
  focusRef,
}: PanelProps & {
  kind: CaptureFileKind;
  hint: string;
  send: (file: File) => { first: CaptureStage; send: SendCapture };
}) {
  const { t, i18n } = useNotesMessages('capture');
  const id = useId();
  const [file, setFile] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const [dragging, setDragging] = useState(false);

  const problemText = (picked: File): string | undefined => {
    const found = fileProblem(kind, picked);
    // An image is made smaller before it is sent: its size is checked after that.
    if (!found || (kind === 'image' && found === 'tooLarge')) return undefined;
    if (found === 'empty') return t('file.empty');
    const size = formatBytes(picked.size, i18n.language);
    switch (kind) {
      case 'image':
        return t('image.notAnImage');
      case 'audio':
        return found === 'wrongType' ? t('audio.notAudio') : t('audio.tooLarge', { size });
      case 'pdf':
        return found === 'wrongType' ? t('pdf.notPdf') : t('pdf.tooLarge', { size });
    }
  };

  const pick = (picked: File | undefined) => {
    if (!picked || busy) return;
    onEdit();
    const found = problemText(picked);
    setProblem(found);
    setFile(found ? undefined : picked);
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    pick(picked);
  };

  const onPaste = (event: ClipboardEvent<HTMLFormElement>) => {
    const pasted = event.clipboardData.files[0];
    if (!pasted) return;
    event.preventDefault();
    pick(pasted);
  };

  const onDragOver = (event: DragEvent<HTMLFormElement>) => {
    if (![...event.dataTransfer.types].includes('Files')) return;
    event.preventDefault();
    setDragging(true);
  };

  const onDrop = (event: DragEvent<HTMLFormElement>) => {
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (!dropped) return;
    event.preventDefault();
    pick(dropped);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    if (!file || busy) return;
    const { first, send: sending } = send(file);
    onCreate(first, sending);
  };

  const Icon = fileIcons[kind];
  const choose =
    kind === 'image' ? t('image.choose') : kind === 'pdf' ? t('pdf.choose') : t('audio.choose');
  const problemId = `${id}-problem`;
  return (
    <form
      className="capture-form"
      noValidate
      onSubmit={submit}
      onPaste={onPaste}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className={dragging ? 'capture-picker capture-picker-drop' : 'capture-picker'}>
        <input
          ref={focusRef as RefObject<HTMLInputElement | null>}
          id={`${id}-file`}
          className="capture-file-input"
          type="file"
          accept={captureAccept[kind]}
          disabled={busy}
          aria-labelledby={`${id}-choose`}
          aria-describedby={[`${id}-hint`, problem ? problemId : ''].filter(Boolean).join(' ')}
          aria-invalid={problem ? true : undefined}
          onChange={onPick}
        />
        <label htmlFor={`${id}-file`} className="capture-picker-label">
          <Icon className="ui-icon" aria-hidden="true" />
          <span id={`${id}-choose`} className="capture-picker-title">
            {choose}
          </span>
          <span className="capture-picker-hint" aria-hidden="true">
            {kind === 'image' ? t('image.dropHint') : t('file.dropHint')}
          </span>
        </label>
      </div>
      <p id={`${id}-hint`} className="ui-hint">
        {hint}
      </p>
      {problem ? (
        <p id={problemId} className="ui-field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {file ? (
        <div className="capture-chosen">
          {kind === 'image' ? <ImagePreview file={file} alt={t('image.preview')} /> : null}
          <p>
            {t('file.chosen', {
              name: file.name || t('file.unnamed'),
              size: formatBytes(file.size, i18n.language),
            })}
          </p>
        </div>
      ) : null}
      {status}
      <div className="ui-dialog-actions">
        <Button onClick={onCancel} disabled={busy}>
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!file || busy}>
          {t('dialog.create')}
        </Button>
      </div>
    </form>
  );
}
