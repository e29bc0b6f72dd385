import type { Knex } from 'knex';
import type { AiMethod, NoteRef } from '@noted/api';

type Db = Knex | Knex.Transaction;

export interface ChatRow {
  id: string;
  user_id: string;
  title: string;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRow {
  id: string;
  chat_id: string;
  user_id: string;
  role: 'user' | 'assistant';
  content: string;
  citations: NoteRef[];
  method: AiMethod | null;
  created_at: Date;
}

/** Every query names the owner: another user's chat is simply not found. */
export const chatRepository = {
  find: async (db: Db, userId: string, chatId: string): Promise<ChatRow | undefined> =>
    db<ChatRow>('chats').where({ user_id: userId, id: chatId }).first(),

  create: async (db: Db, row: Pick<ChatRow, 'id' | 'user_id' | 'title'>) => {
    await db('chats').insert(row);
  },

  touch: async (db: Db, userId: string, chatId: string) => {
    await db('chats').where({ user_id: userId, id: chatId }).update({ updated_at: db.fn.now() });
  },

  page: async (db: Db, userId: string, page: number, limit: number) => {
    const [rows, [counted]] = await Promise.all([
      db('chats as c')
        .where('c.user_id', userId)
        .select<(ChatRow & { message_count: string | number })[]>(
          'c.*',
          db.raw('(select count(*) from chat_messages m where m.chat_id = c.id) as message_count'),
        )
        .orderBy([
          { column: 'c.updated_at', order: 'desc' },
          { column: 'c.id', order: 'desc' },
        ])
        .limit(limit)
        .offset((page - 1) * limit),
      db('chats').where({ user_id: userId }).count<{ count: string | number }[]>({ count: '*' }),
    ]);
    return { rows, total: Number(counted?.count ?? 0) };
  },

  messages: async (db: Db, userId: string, chatId: string): Promise<MessageRow[]> =>
    db<MessageRow>('chat_messages')
      .where({ user_id: userId, chat_id: chatId })
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'role', order: 'desc' },
      ]),

  addMessage: async (db: Db, row: Omit<MessageRow, 'created_at'> & { created_at?: Date }) => {
    await db('chat_messages').insert({ ...row, citations: JSON.stringify(row.citations) });
  },

  remove: async (db: Db, userId: string, chatId: string): Promise<boolean> =>
    (await db('chats').where({ user_id: userId, id: chatId }).delete()) > 0,
};
