import type { ChatSummary } from '@noted/api';
import {
  Button,
  IconButton,
  MessageSquarePlusIcon,
  TrashIcon,
  buttonClass,
  useShell,
} from '@noted/ui';
import { useId, useState } from 'react';
import { Link } from '@noted/router';
import type { NotesApi } from '../../api';
import { LoadFailed, Loading } from '../../LoadStatus';
import { log } from '../../log';
import { useErrorText, useNotesMessages } from '../../messages';
import { formatDate } from '../../text';
import { useLoad } from '../../useLoad';

const PAGE = 30;
/** The most one answer of the chat history holds. */
const MOST = 100;

const newestFirst = (chats: ChatSummary[]) =>
  [...chats].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

export interface ChatListProps {
  api: Pick<NotesApi, 'knowledge'>;
  /** The conversation shown, marked in the list. */
  openId: string | undefined;
  /** Counts the answers given here: each may have started or moved a conversation. */
  generation: number;
  onDeletedOpen: () => void;
}

/** The user's conversations, newest first; each opens, or is deleted after confirming. */
export function ChatList({ api, openId, generation, onDeletedOpen }: ChatListProps) {
  const { t, i18n } = useNotesMessages('ai');
  const shell = useShell();
  const errorText = useErrorText();
  const headingId = useId();
  const [limit, setLimit] = useState(PAGE);
  const [attempt, setAttempt] = useState(0);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<string>();
  const { settled, loading } = useLoad(
    `${limit}:${generation}:${attempt}`,
    () => api.knowledge.chats({ limit }),
    (error) => log.error('Loading the conversations failed.', error),
  );

  const remove = async (chat: ChatSummary) => {
    const title = chat.title || t('chat.untitled');
    const confirmed = await shell.confirm({
      title: t('chat.delete.title'),
      message: t('chat.delete.message', { title }),
      confirmLabel: t('chat.delete.confirm'),
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(chat.id);
    try {
      await api.knowledge.removeChat(chat.id);
      setDeleted((current) => new Set(current).add(chat.id));
      if (chat.id === openId) onDeletedOpen();
    } catch (error) {
      log.error('Deleting a conversation failed.', error);
      shell.toast(t('chat.delete.failed', { reason: errorText(error) }));
    } finally {
      setDeleting(undefined);
    }
  };

  let content;
  if (!settled) {
    content = <Loading lines={4}>{t('chat.list.loading')}</Loading>;
  } else if ('error' in settled) {
    content = (
      <LoadFailed
        message={(reason) => t('chat.list.loadFailed', { reason })}
        error={settled.error}
        onRetry={() => setAttempt((n) => n + 1)}
      />
    );
  } else {
    const chats = newestFirst(settled.value.items.filter((chat) => !deleted.has(chat.id)));
    content =
      chats.length === 0 ? (
        <p className="ai-chat-none">{t('chat.list.empty')}</p>
      ) : (
        <>
          <ul className="ai-chat-list">
            {chats.map((chat) => {
              const title = chat.title || t('chat.untitled');
              return (
                <li key={chat.id} className="ai-chat-item">
                  <Link
                    to={`/chat/${chat.id}`}
                    className="ai-chat-link"
                    aria-current={chat.id === openId ? 'page' : undefined}
                  >
                    <span className="ai-chat-link-title">{title}</span>
                    <time dateTime={chat.updatedAt}>
                      {formatDate(chat.updatedAt, i18n.language)}
                    </time>
                  </Link>
                  <IconButton
                    label={t('chat.delete.label', { title })}
                    icon={TrashIcon}
                    size="sm"
                    className="ai-chat-delete"
                    disabled={deleting === chat.id}
                    onClick={() => void remove(chat)}
                  />
                </li>
              );
            })}
          </ul>
          {settled.value.total > settled.value.items.length && limit < MOST ? (
            <Button
              size="sm"
              variant="ghost"
              block
              loading={loading}
              disabled={loading}
              onClick={() => setLimit((current) => Math.min(MOST, current + PAGE))}
            >
              {t('chat.list.more')}
            </Button>
          ) : null}
        </>
      );
  }

  return (
    <nav className="ai-chat-history" aria-labelledby={headingId} aria-busy={loading}>
      <div className="ai-chat-history-head">
        <h2 id={headingId} className="ai-chat-history-title">
          {t('chat.list.heading')}
        </h2>
        <Link to="/chat" className={buttonClass({ size: 'sm', className: 'ai-chat-new' })}>
          <MessageSquarePlusIcon className="ui-icon" aria-hidden="true" />
          {t('chat.new')}
        </Link>
      </div>
      {content}
    </nav>
  );
}
