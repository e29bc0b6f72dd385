import { Button, Callout, CheckIcon, SparklesIcon, SquareIcon, XIcon } from '@noted/ui';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent, RefObject } from 'react';
import type { NotesApi } from '../../api';
import { useNotesMessages } from '../../messages';
import type { CommandContext, EditorSelection, ScreenPoint, SlashCommand } from '../../note/editor';
import { AiNotice } from '../AiNotice';
import { AnswerMethod } from '../AnswerMethod';
import { useAnswerStream, type StreamOptions } from '../useAnswerStream';
import {
  MAX_TEXT,
  applyAnswer,
  sourceText,
  targetFor,
  writerCommands,
  type WriterCommand,
  type WriterTarget,
} from './writerEdit';
import './writer.css';

/** Languages offered for Translate, each named in its own language; any other can be typed. */
const LANGUAGES = [
  'English',
  '中文',
  'Español',
  'Français',
  'Deutsch',
  '日本語',
  '한국어',
  'Português',
];

/** One use of the writer: the command, where its answer goes, the note as it was then. */
interface WriterRequest {
  command: WriterCommand;
  target: WriterTarget;
  text: string;
  /** The language (Translate) or the question (Ask AI), once given. */
  input?: string;
}

const needsInput = (command: WriterCommand) => command === 'translate' || command === 'ask';

/** Where the toolbar and the answer go in the editor's area, in its own pixels. */
interface Placement {
  left: number;
  top: number;
}

export interface AiWriterOptions {
  api: Pick<NotesApi, 'ai'>;
  noteId: string;
  /** The note's text as in the editor now. */
  text: string;
  /** Puts the accepted text in the editor, as typing would. */
  onApply: (text: string) => void;
  /** The editor's area, which the toolbar and the answer are placed in. */
  area: RefObject<HTMLDivElement | null>;
  /** The writer's button, which takes the focus back when the answer is closed. */
  opener: RefObject<HTMLButtonElement | null>;
}

export type AiWriter = ReturnType<typeof useAiWriter>;

/**
 * The AI writer of a note: the selection toolbar, the `/` commands and the answer, which
 * streams into a preview and changes the note only when accepted.
 */
export function useAiWriter({ api, noteId, text, onApply, area, opener }: AiWriterOptions) {
  const { t } = useNotesMessages('ai');
  const [selection, setSelection] = useState<EditorSelection>({ from: 0, to: 0 });
  const [placement, setPlacement] = useState<Placement>();
  const [toolsOpen, setToolsOpen] = useState(false);
  const [request, setRequest] = useState<WriterRequest>();
  const [lost, setLost] = useState(false);
  const refocus = useRef(false);
  const { answer, start, stop, clear } = useAnswerStream();

  // A closed answer hands the focus back to the writer's button, once that is enabled again.
  useEffect(() => {
    if (request || !refocus.current) return;
    refocus.current = false;
    opener.current?.focus();
  }, [request, opener]);

  const select = useCallback(
    (next: EditorSelection, point?: ScreenPoint) => {
      setSelection((current) =>
        current.from === next.from && current.to === next.to ? current : next,
      );
      const box = area.current?.getBoundingClientRect();
      if (!point || !box || box.width === 0) {
        setPlacement(undefined);
        return;
      }
      // Kept in the left half so the toolbar has room to the right.
      setPlacement({
        left: Math.max(0, Math.min(point.left - box.left, box.width / 2)),
        top: point.bottom - box.top + 4,
      });
    },
    [area],
  );

  const run = useCallback(
    (next: WriterRequest) => {
      setRequest(next);
      setLost(false);
      const { command, target, input } = next;
      const call = (options: StreamOptions) => {
        if (command === 'ask') {
          return api.ai.askAi(
            { question: input ?? '', noteId, text: next.text.slice(0, MAX_TEXT) },
            options,
          );
        }
        const source = sourceText(next.text, target);
        return api.ai.assist(
          {
            action: command,
            noteId,
            ...(source.trim() ? { text: source } : {}),
            ...(command === 'translate' && input ? { language: input } : {}),
          },
          options,
        );
      };
      void start(call);
    },
    [api, noteId, start],
  );

  const choose = useCallback(
    (command: WriterCommand, context: CommandContext) => {
      clear();
      setToolsOpen(false);
      const next = { command, target: targetFor(command, context.text, context.selection) };
      if (needsInput(command)) {
        setLost(false);
        setRequest({ ...next, text: context.text });
      } else {
        run({ ...next, text: context.text });
      }
    },
    [clear, run],
  );

  const close = useCallback(() => {
    clear();
    setRequest(undefined);
    setLost(false);
    refocus.current = true;
  }, [clear]);

  const accept = () => {
    if (!request || !answer) return;
    const next = applyAnswer(text, request.target, answer.text);
    if (next === undefined) {
      setLost(true);
      return;
    }
    onApply(next);
    close();
  };

  const slashCommands = useMemo<SlashCommand[]>(
    () =>
      writerCommands.map((command) => ({
        id: command,
        label: t(`writer.command.${command}`),
        detail: t('writer.slashDetail'),
        run: (context) => choose(command, context),
      })),
    [t, choose],
  );

  return {
    selection,
    placement,
    toolsOpen,
    setToolsOpen,
    request,
    answer,
    lost,
    select,
    choose,
    run,
    stop,
    accept,
    close,
    slashCommands,
    text,
  };
}

/** The button that opens the writer's toolbar without a selection (Continue, Ask AI, the whole note). */
export function AiWriterButton({
  writer,
  toolbarId,
  disabled,
  buttonRef,
}: {
  writer: AiWriter;
  toolbarId: string;
  disabled?: boolean;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  const { t } = useNotesMessages('ai');
  const { toolsOpen, setToolsOpen, request } = writer;
  return (
    <Button
      ref={buttonRef}
      icon={SparklesIcon}
      className="ai-writer-open"
      aria-expanded={toolsOpen}
      aria-controls={toolsOpen ? toolbarId : undefined}
      disabled={disabled || request !== undefined}
      onClick={() => setToolsOpen(!toolsOpen)}
    >
      {t('writer.open')}
    </Button>
  );
}

/** Arrow keys, Home and End move between the toolbar's buttons; Tab leaves it (one stop). */
const moveInToolbar = (event: KeyboardEvent<HTMLElement>, onEscape: () => void) => {
  if (event.key === 'Escape') {
    event.preventDefault();
    onEscape();
    return;
  }
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === 'ArrowRight' || event.key === 'ArrowDown'
      ? (at + 1) % buttons.length
      : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
        ? (at - 1 + buttons.length) % buttons.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? buttons.length - 1
            : undefined;
  if (next === undefined) return;
  event.preventDefault();
  buttons[next]?.focus();
};

function WriterToolbar({ writer, id }: { writer: AiWriter; id: string }) {
  const { t } = useNotesMessages('ai');
  const { selection, placement, toolsOpen, setToolsOpen, choose, text } = writer;
  const [current, setCurrent] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const selected = selection.from !== selection.to;

  // Opened by its button, the toolbar takes the focus; shown for a selection, it leaves it be.
  useEffect(() => {
    if (toolsOpen) ref.current?.querySelector('button')?.focus();
  }, [toolsOpen]);

  return (
    <div
      ref={ref}
      id={id}
      role="toolbar"
      aria-label={t('writer.toolbar')}
      className="ai-writer-toolbar"
      data-floating={placement ? 'true' : undefined}
      style={placement ? { left: placement.left, top: placement.top } : undefined}
      onKeyDown={(event) => moveInToolbar(event, () => setToolsOpen(false))}
    >
      <span className="ai-writer-scope">
        <SparklesIcon className="ui-icon" aria-hidden="true" />
        {selected ? t('writer.scope.selection') : t('writer.scope.note')}
      </span>
      {writerCommands.map((command, index) => (
        <Button
          key={command}
          size="sm"
          variant="ghost"
          tabIndex={index === current ? 0 : -1}
          onFocus={() => setCurrent(index)}
          // The editor keeps the focus and shows the selection while the pointer is down.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => choose(command, { text, selection })}
        >
          {t(`writer.command.${command}`)}
        </Button>
      ))}
    </div>
  );
}

function WriterInput({
  request,
  onSubmit,
  onCancel,
}: {
  request: WriterRequest;
  onSubmit: (input: string) => void;
  onCancel: () => void;
}) {
  const { t } = useNotesMessages('ai');
  const id = useId();
  const [value, setValue] = useState('');
  const translate = request.command === 'translate';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = value.trim();
    if (translate ? input.length >= 2 : input.length > 0) onSubmit(input);
  };
  return (
    <form className="ai-writer-input" onSubmit={submit}>
      <label htmlFor={id} className="ui-label">
        {translate ? t('writer.language') : t('writer.question')}
      </label>
      {translate ? (
        <>
          <input
            id={id}
            type="text"
            className="ui-input"
            list={`${id}-languages`}
            value={value}
            minLength={2}
            maxLength={40}
            autoComplete="off"
            autoFocus
            onChange={(event) => setValue(event.target.value)}
          />
          <datalist id={`${id}-languages`}>
            {LANGUAGES.map((language) => (
              <option key={language} value={language} />
            ))}
          </datalist>
        </>
      ) : (
        <textarea
          id={id}
          className="ui-input"
          value={value}
          rows={2}
          maxLength={4000}
          autoFocus
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
      )}
      <div className="ai-writer-actions">
        <Button type="submit" variant="primary" icon={SparklesIcon}>
          {translate ? t('writer.translate') : t('writer.ask')}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </form>
  );
}

const acceptHintKey = (target: WriterTarget) => {
  if (target.kind === 'append') return 'writer.acceptHint.append';
  if (target.kind === 'insert') return 'writer.acceptHint.insert';
  return target.wholeNote ? 'writer.acceptHint.note' : 'writer.acceptHint.selection';
};

function WriterPanel({ writer, request }: { writer: AiWriter; request: WriterRequest }) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const panel = useRef<HTMLElement>(null);
  const { answer, placement, lost, run, stop, accept, close } = writer;
  const streaming = answer?.status === 'streaming';
  const waitingForInput = needsInput(request.command) && request.input === undefined;

  // The answer takes the focus, so Stop, Accept and Discard are the next keys away.
  useEffect(() => {
    if (!waitingForInput) panel.current?.focus();
  }, [waitingForInput]);

  let state = '';
  if (streaming) state = t('writer.writing');
  else if (answer?.status === 'stopped') state = t('writer.stopped');

  return (
    <section
      ref={panel}
      tabIndex={-1}
      className="ai-writer-panel"
      aria-labelledby={headingId}
      data-floating={placement ? 'true' : undefined}
      style={placement ? { top: placement.top } : undefined}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        close();
      }}
    >
      <div className="ai-writer-head">
        <SparklesIcon className="ui-icon ai-writer-head-icon" aria-hidden="true" />
        <h2 id={headingId} className="ai-writer-heading">
          {t(`writer.heading.${request.command}`)}
          {request.input && request.command === 'translate' ? ` · ${request.input}` : ''}
        </h2>
      </div>
      {request.command === 'ask' && request.input ? (
        <p className="ai-writer-question">{request.input}</p>
      ) : null}
      {waitingForInput ? (
        <WriterInput
          request={request}
          onSubmit={(input) => run({ ...request, input })}
          onCancel={close}
        />
      ) : (
        <>
          {answer?.status !== 'failed' || answer.text ? (
            <div className="ai-writer-answer" aria-label={t('writer.answer')} aria-busy={streaming}>
              {answer?.text ?? ''}
            </div>
          ) : null}
          {state ? (
            <p className="ai-writer-state" role="status">
              {state}
            </p>
          ) : null}
          {answer?.status === 'done' && answer.done ? (
            <AnswerMethod method={answer.done.method} model={answer.done.model} />
          ) : null}
          {answer?.status === 'failed' ? (
            <AiNotice error={answer.error} onRetry={() => run(request)} />
          ) : null}
          {lost ? (
            <Callout tone="warning" role="alert">
              {t('writer.lost')}
            </Callout>
          ) : null}
          {answer && !streaming && answer.text.trim() ? (
            <p className="ai-writer-hint">{t(acceptHintKey(request.target))}</p>
          ) : null}
          <div className="ai-writer-actions">
            {streaming ? (
              <Button icon={SquareIcon} onClick={stop}>
                {t('writer.stop')}
              </Button>
            ) : null}
            {answer && !streaming && answer.text.trim() ? (
              <Button variant="primary" icon={CheckIcon} onClick={accept}>
                {t('writer.accept')}
              </Button>
            ) : null}
            <Button variant="ghost" icon={XIcon} onClick={close}>
              {t('writer.discard')}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * The toolbar (for a selection, or opened by its button) and the answer panel; both float
 * under the selection when the editor says where it is, else they follow the editor.
 */
export function AiWriterTools({
  writer,
  toolbarId,
  enabled,
}: {
  writer: AiWriter;
  toolbarId: string;
  /** False while the note is shown as a preview. */
  enabled: boolean;
}) {
  const { request, toolsOpen, selection } = writer;
  if (!enabled) return null;
  if (request) return <WriterPanel writer={writer} request={request} />;
  if (toolsOpen || selection.from !== selection.to) {
    return <WriterToolbar writer={writer} id={toolbarId} />;
  }
  return null;
}
