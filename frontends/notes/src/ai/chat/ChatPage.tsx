import { Callout, PageHeader, SettingsIcon, buttonClass } from '@noted/ui';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from '@noted/router';
import type { NotesApi } from '../../api';
import { ErrorBoundary } from '../../ErrorBoundary';
import { useNotesMessages } from '../../messages';
import { ChatList } from './ChatList';
import { Conversation } from './Conversation';
import '../ai.css';
import './chat.css';

export interface ChatPageProps {
  api: Pick<NotesApi, 'knowledge' | 'notes' | 'ai' | 'tags'>;
}

/** Which conversation is shown, and the one this page started (it keeps streaming under its id). */
interface Shown {
  chatId: string | undefined;
  startedId: string | undefined;
  /** Counts the new conversations begun here, so each starts empty. */
  fresh: number;
}

/**
 * `/chat` and `/chat/:chatId`: the knowledge chat. Questions are answered from the user's notes,
 * each answer citing the notes it rests on; past conversations are listed beside it.
 */
export function ChatPage({ api }: ChatPageProps) {
  const { t } = useNotesMessages('ai');
  const headingId = useId();
  const { chatId } = useParams();
  const navigate = useNavigate();
  const [shown, setShown] = useState<Shown>({ chatId, startedId: undefined, fresh: 0 });
  const [listGeneration, setListGeneration] = useState(0);

  // A conversation started here moves to its own address while its answer streams in: it
  // stays mounted. Any other change of address shows another conversation, or a new one.
  if (shown.chatId !== chatId) {
    const ownAddress = chatId !== undefined && chatId === shown.startedId;
    setShown({
      chatId,
      startedId: ownAddress ? shown.startedId : undefined,
      fresh: ownAddress ? shown.fresh : shown.fresh + 1,
    });
  }
  const conversationKey =
    chatId !== undefined && chatId !== shown.startedId ? chatId : `new-${shown.fresh}`;

  const started = (id: string) => {
    setShown((current) => ({ ...current, startedId: id }));
    void navigate(`/chat/${id}`);
  };

  return (
    <section className="ai-chat" aria-labelledby={headingId}>
      <PageHeader
        titleId={headingId}
        title={t('chat.heading')}
        description={t('chat.intro')}
        actions={
          <Link to="/settings/ai" className={buttonClass({ variant: 'ghost', size: 'sm' })}>
            <SettingsIcon className="ui-icon" aria-hidden="true" />
            {t('chat.settingsLink')}
          </Link>
        }
      />
      <div className="ai-chat-layout">
        <ChatList
          api={api}
          openId={chatId}
          generation={listGeneration}
          onDeletedOpen={() => void navigate('/chat')}
        />
        {/* Keyed by conversation: another one starts afresh, and so does its error boundary. */}
        <ErrorBoundary
          key={conversationKey}
          message="The conversation could not be shown."
          fallback={
            <Callout tone="danger" role="alert">
              {t('chat.failed')}
            </Callout>
          }
        >
          <Conversation
            api={api}
            chatId={chatId}
            onStarted={started}
            onAnswered={() => setListGeneration((n) => n + 1)}
          />
        </ErrorBoundary>
      </div>
    </section>
  );
}
