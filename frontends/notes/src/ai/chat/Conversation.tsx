import type { AiMethod, ChatMessage, NoteRef } from '@noted/api';
import {
  Button,
  FileTextIcon,
  IconButton,
  NotebookPenIcon,
  SendIcon,
  SparklesIcon,
  SquareIcon,
  useShell,
} from '@noted/ui';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from '@noted/router';
import type { NotesApi } from '../../api';
import { LoadFailed, Loading } from '../../LoadStatus';
import { log } from '../../log';
import { useErrorText, useNotesMessages } from '../../messages';
import { MarkdownPreview } from '../../note/MarkdownPreview';
import { errorCode } from '../../text';
import { AiNotice } from '../AiNotice';
import { AnswerMethod } from '../AnswerMethod';
import { useAiFeature } from '../useAiFeature';
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
  api: Pick<NotesApi, 'knowledge' | 'notes' | 'ai' | 'tags'>;
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
            <Link to={`/notes/${note.id}`} className="ui-chip ai-citation">
              <FileTextIcon className="ui-icon" aria-hidden="true" />
              {note.title || t('common.untitled')}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The mark beside an answer. */
function AnswerAvatar() {
  return (
    <span className="ai-turn-avatar" aria-hidden="true">
      <SparklesIcon className="ui-icon" />
    </span>
  );
}

const SUGGESTIONS = ['week', 'open', 'decided'] as const;
/** Questions about the user's most used tags, offered where answers are passages. */
const TAG_SUGGESTIONS = 3;

/**
 * The questions a new conversation offers. A language model answers the open ones; without
 * one an answer is the passages that match best, which a question about dates or tasks would
 * only mislead ("What is still left to do?" matched a car repair), so the questions are about
 * the user's own most used tags instead.
 */
function useSuggestions(
  api: Pick<NotesApi, 'ai' | 'tags'>,
  passages: boolean | undefined,
): string[] | undefined {
  const { t } = useNotesMessages('ai');
  const [tags, setTags] = useState<string[]>();
  useEffect(() => {
    if (!passages) return;
    let current = true;
    api.tags.list().then(
      (list) => {
        if (!current) return;
        const used = [...list.items].sort((a, b) => b.count - a.count);
        setTags(used.slice(0, TAG_SUGGESTIONS).map((item) => item.tag));
      },
      (error: unknown) => {
        log.warn('Loading the tags to suggest questions failed.', error);
        if (current) setTags([]);
      },
    );
    return () => {
      current = false;
    };
  }, [api, passages]);
  if (passages === undefined) return undefined;
  if (!passages) return SUGGESTIONS.map((key) => t(`chat.suggestions.${key}`));
  return tags?.map((tag) => t('chat.suggestionTag', { tag }));
}

/** What a new conversation shows: what to ask, and a few questions to start with. */
function ConversationStart({
  api,
  onPick,
}: {
  api: Pick<NotesApi, 'ai' | 'tags'>;
  onPick: (question: string) => void;
}) {
  const { t } = useNotesMessages('ai');
  const suggestionsId = useId();
  const mode = useAiFeature(api, 'chat');
  const passages = mode === undefined ? undefined : mode !== 'model';
  const suggestions = useSuggestions(api, passages);
  return (
    <div className="ai-chat-start">
      <span className="ai-chat-start-icon" aria-hidden="true">
        <SparklesIcon className="ui-icon" />
      </span>
      <h2 className="ai-chat-start-title">{t('chat.startTitle')}</h2>
      <p className="ai-chat-start-text">{passages ? t('chat.startPassages') : t('chat.start')}</p>
      {suggestions && suggestions.length > 0 ? (
        <>
          <p id={suggestionsId} className="visually-hidden">
            {t('chat.suggestionsLabel')}
          </p>
          <ul className="ai-chat-suggestions" aria-labelledby={suggestionsId}>
            {suggestions.map((question) => (
              <li key={question}>
                <button
                  type="button"
                  className="ui-chip ai-chat-suggestion"
                  onClick={() => onPick(question)}
                >
                  {question}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** Near the end of the page: new words of an answer keep it in view. */
const atEnd = () =>
  window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 96;

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
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const streaming = answer?.status === 'streaming';

  useEffect(() => {
    const onScroll = () => {
      following.current = atEnd();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // Once the user has asked, the newest words stay in view, unless they scrolled up to read.
  useLayoutEffect(() => {
    if (asked.current === 0 || !following.current) return;
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [turns.length, answer?.text]);

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
    following.current = true;
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
      <section className="ai-chat-conversation ui-card">
        <div className="ai-chat-scroll">
          <LoadFailed
            message={(reason) => t('chat.loadFailed', { reason })}
            error={loading.error}
            onRetry={() => {
              setLoading('loading');
              setAttempt((n) => n + 1);
            }}
          />
        </div>
      </section>
    );
  }

  return (
    <section className="ai-chat-conversation ui-card" aria-label={t('chat.conversation')}>
      <div className="ai-chat-scroll">
        {loading === 'loading' ? <Loading lines={5}>{t('chat.loading')}</Loading> : null}
        {loading === 'ready' && turns.length === 0 && !answer ? (
          <ConversationStart
            api={api}
            onPick={(text) => {
              setQuestion(text);
              questionRef.current?.focus();
            }}
          />
        ) : null}
        <ol className="ai-chat-turns">
          {turns.map((turn) =>
            turn.role === 'user' ? (
              <li key={turn.key} className="ai-turn" data-role="user">
                <p className="visually-hidden">{t('chat.you')}</p>
                <div className="ai-turn-text">{turn.content}</div>
              </li>
            ) : (
              <li key={turn.key} className="ai-turn" data-role="assistant">
                <AnswerAvatar />
                <div className="ai-turn-main">
                  <p className="ai-turn-who">{t('chat.assistant')}</p>
                  {turn.content ? (
                    // Answers are Markdown: a model's lists, or the quoted passages of an extractive one.
                    <MarkdownPreview body={turn.content} />
                  ) : null}
                  <Citations notes={turn.citations} />
                  {turn.stopped ? <p className="ai-turn-stopped">{t('chat.stopped')}</p> : null}
                  <div className="ai-turn-foot">
                    {turn.method ? (
                      <AnswerMethod method={turn.method} model={turn.model} passages />
                    ) : null}
                    {turn.messageId && chatId ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={NotebookPenIcon}
                        loading={saving === turn.key}
                        disabled={saving !== undefined}
                        onClick={() => void saveAsNote(turn)}
                      >
                        {saving === turn.key ? t('chat.saving') : t('chat.saveAsNote')}
                      </Button>
                    ) : null}
                  </div>
                </div>
              </li>
            ),
          )}
          {answer ? (
            <li className="ai-turn" data-role="assistant" aria-busy={streaming}>
              <AnswerAvatar />
              <div className="ai-turn-main">
                <p className="ai-turn-who">{t('chat.assistant')}</p>
                {answer.text ? (
                  <div className="ai-turn-text">{answer.text}</div>
                ) : streaming ? (
                  <span className="ai-typing" aria-hidden="true">
                    <span />
                    <span />
                    <span />
                  </span>
                ) : null}
                <Citations notes={answer.citations} />
                {answer.status === 'failed' ? <AiNotice error={answer.error} /> : null}
              </div>
            </li>
          ) : null}
        </ol>
        <div ref={endRef} />
      </div>
      <p className="visually-hidden" role="status">
        {streaming ? t('chat.answering') : ''}
      </p>
      <form className="ai-chat-ask" onSubmit={submit}>
        <label htmlFor={questionId} className="visually-hidden">
          {t('chat.question')}
        </label>
        <div className="ai-chat-box">
          <textarea
            ref={questionRef}
            id={questionId}
            className="ui-input ai-chat-input"
            value={question}
            rows={1}
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
          {streaming ? (
            <IconButton
              label={t('chat.stop')}
              icon={SquareIcon}
              variant="secondary"
              className="ai-chat-send"
              onClick={stop}
            />
          ) : (
            <IconButton
              type="submit"
              label={t('chat.ask')}
              icon={SendIcon}
              variant="primary"
              className="ai-chat-send"
              disabled={!question.trim() || loading !== 'ready'}
            />
          )}
        </div>
        <p className="ai-chat-keys">{t('chat.keys')}</p>
      </form>
    </section>
  );
}
