import type { AiMethod, ChatMessage, NoteRef } from '@noted/api';
import { useShell } from '@noted/ui';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from '@noted/router';
import type { NotesApi } from '../../api';
import { LoadFailed } from '../../LoadStatus';
import { log } from '../../log';
import { useErrorText, useNotesMessages } from '../../messages';
import { MarkdownPreview } from '../../note/MarkdownPreview';
import { errorCode } from '../../text';
import { AiNotice } from '../AiNotice';
import { AnswerMethod } from '../AnswerMethod';
import { useAnswerStream } from '../useAnswerStream';

/** One question or answer as shown. */
interface Turn {
  key: string;
  role: ChatMessage['role'];
  content: string;
  citations: NoteRef[];
  method?: AiMethod | undefined;
  model?: string | undefined;
  /** The stored answer's id: what Save as note turns into a note. */
  messageId?: string | undefined;
  /** Stopped before it was finished. */
  stopped?: boolean;
}

const turnOf = (message: ChatMessage): Turn => ({
  key: message.id,
  role: message.role,
  content: message.content,
  citations: message.citations,
  method: message.method,
  ...(message.role === 'assistant' ? { messageId: message.id } : {}),
});

type Loading = 'loading' | 'ready' | { error: unknown };

export interface ConversationProps {
  api: Pick<NotesApi, 'knowledge' | 'notes'>;
  /** The conversation to open when mounted; none starts a new one. */
  chatId: string | undefined;
  /** A new conversation got its id (the first answer began). */
  onStarted: (chatId: string) => void;
  onAnswered: () => void;
}

function Citations({ notes }: { notes: NoteRef[] }) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  if (notes.length === 0) return null;
  return (
    <div className="ai-citations">
      <span id={headingId} className="ai-citations-label">
        {t('chat.sources')}
      </span>
      <ul aria-labelledby={headingId}>
        {notes.map((note) => (
          <li key={note.id}>
            <Link to={`/notes/${note.id}`}>{note.title || t('common.untitled')}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One conversation: its questions and cited answers, and the box for the next question. */
export function Conversation({ api, chatId: openedId, onStarted, onAnswered }: ConversationProps) {
  const { t } = useNotesMessages('ai');
  const shell = useShell();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const questionId = useId();
  // The conversation this one was opened as; a new one gets its id from its first answer.
  const [loadedId] = useState(openedId);
  const [chatId, setChatId] = useState(openedId);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [loading, setLoading] = useState<Loading>(openedId ? 'loading' : 'ready');
  const [attempt, setAttempt] = useState(0);
  const [question, setQuestion] = useState('');
  const [saving, setSaving] = useState<string>();
  const { answer, start, stop, clear } = useAnswerStream();
  const asked = useRef(0);
  const streaming = answer?.status === 'streaming';

  useEffect(() => {
    if (!loadedId) return;
    let active = true;
    api.knowledge.chat(loadedId).then(
      (chat) => {
        if (!active) return;
        setTurns(chat.messages.map(turnOf));
        setLoading('ready');
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading a conversation failed.', error);
        setLoading({ error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, loadedId, attempt]);

  const ask = async (text: string) => {
    asked.current += 1;
    const turn = asked.current;
    setTurns((current) => [
      ...current,
      { key: `asked-${turn}`, role: 'user', content: text, citations: [] },
    ]);
    setQuestion('');
    const result = await start(
      (options) => api.knowledge.answer({ question: text, ...(chatId ? { chatId } : {}) }, options),
      (id) => {
        setChatId(id);
        if (!chatId) onStarted(id);
      },
    );
    onAnswered();
    if (result.status === 'failed') {
      setQuestion((current) => current || text);
      return;
    }
    if (result.status === 'done' || result.text.trim()) {
      setTurns((current) => [
        ...current,
        {
          key: result.done?.messageId ?? `answer-${turn}`,
          role: 'assistant',
          content: result.text,
          citations: result.citations,
          method: result.done?.method,
          model: result.done?.model,
          messageId: result.done?.messageId,
          stopped: result.status === 'stopped',
        },
      ]);
    }
    clear();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = question.trim();
    if (!text || streaming || loading !== 'ready') return;
    void ask(text);
  };

  const saveAsNote = async (turn: Turn) => {
    if (!chatId || !turn.messageId) return;
    setSaving(turn.key);
    try {
      const draft = await api.knowledge.generate({ chatId, messageId: turn.messageId });
      const note = await api.notes.create({
        title: draft.title,
        note: draft.note,
        tags: draft.tags,
      });
      void navigate(`/notes/${note.id}`);
    } catch (error) {
      // The shell's client already says when the month's notes are used up.
      if (errorCode(error) !== 'NOTES_LEFT_NOT_ENOUGH') {
        log.error('Saving an answer as a note failed.', error);
        shell.toast(t('chat.saveFailed', { reason: errorText(error) }));
      }
      setSaving(undefined);
    }
  };

  if (loading !== 'ready' && loading !== 'loading') {
    return (
      <section className="ai-chat-conversation">
        <LoadFailed
          message={(reason) => t('chat.loadFailed', { reason })}
          error={loading.error}
          onRetry={() => {
            setLoading('loading');
            setAttempt((n) => n + 1);
          }}
        />
      </section>
    );
  }

  return (
    <section className="ai-chat-conversation" aria-label={t('chat.conversation')}>
      {loading === 'loading' ? <p className="notes-status">{t('chat.loading')}</p> : null}
      {loading === 'ready' && turns.length === 0 && !answer ? (
        <p className="ai-empty">{t('chat.start')}</p>
      ) : null}
      <ol className="ai-chat-turns">
        {turns.map((turn) => (
          <li key={turn.key} className="ai-turn" data-role={turn.role}>
            <p className="ai-turn-who">
              {turn.role === 'user' ? t('chat.you') : t('chat.assistant')}
            </p>
            {turn.role === 'assistant' && turn.content ? (
              // Answers are Markdown: a model's lists, or the quoted passages of an extractive one.
              <MarkdownPreview body={turn.content} />
            ) : (
              <div className="ai-turn-text">{turn.content}</div>
            )}
            {turn.role === 'assistant' ? (
              <>
                <Citations notes={turn.citations} />
                {turn.stopped ? <p className="ai-method">{t('chat.stopped')}</p> : null}
                {turn.method ? <AnswerMethod method={turn.method} model={turn.model} /> : null}
                {turn.messageId && chatId ? (
                  <button
                    type="button"
                    className="ui-button ui-button-sm"
                    disabled={saving !== undefined}
                    onClick={() => void saveAsNote(turn)}
                  >
                    {saving === turn.key ? t('chat.saving') : t('chat.saveAsNote')}
                  </button>
                ) : null}
              </>
            ) : null}
          </li>
        ))}
        {answer ? (
          <li className="ai-turn" data-role="assistant" aria-busy={streaming}>
            <p className="ai-turn-who">{t('chat.assistant')}</p>
            <div className="ai-turn-text">{answer.text}</div>
            <Citations notes={answer.citations} />
            {answer.status === 'failed' ? <AiNotice error={answer.error} /> : null}
          </li>
        ) : null}
      </ol>
      <p className="visually-hidden" role="status">
        {streaming ? t('chat.answering') : ''}
      </p>
      <form className="ai-chat-ask" onSubmit={submit}>
        <label htmlFor={questionId}>{t('chat.question')}</label>
        <textarea
          id={questionId}
          value={question}
          rows={3}
          maxLength={4000}
          placeholder={t('chat.placeholder')}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="ai-chat-ask-row">
          <span className="note-hint">{t('chat.keys')}</span>
          {streaming ? (
            <button type="button" className="ui-button" onClick={stop}>
              {t('chat.stop')}
            </button>
          ) : (
            <button
              type="submit"
              className="ui-button ui-button-primary"
              disabled={!question.trim() || loading !== 'ready'}
            >
              {t('chat.ask')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
