import type { WriterAskAi, WriterAssist } from '@noted/api';
import { type Parsed } from '@noted/api';
import { noteForAi, requireChatModel, type AiContext } from '../context.js';
import type { ChatMessageInput, Usage } from '../providers/port.js';
import type { Send } from '../sse.js';
import { askMessages, assistMessages } from './prompts.js';

/** A writer request checked and turned into the messages for the model, before streaming. */
export interface PreparedWriting {
  messages: ChatMessageInput[];
  model: string;
  purpose: 'writer' | 'askai';
}

const noteText = async (ctx: AiContext, userId: string, noteId: string | undefined) => {
  if (!noteId) return { title: '', note: '' };
  const note = await noteForAi(ctx, userId, noteId);
  return { title: note.title, note: note.body };
};

export const writerAssistPrepare = async (
  ctx: AiContext,
  userId: string,
  body: Parsed<typeof WriterAssist>,
): Promise<PreparedWriting> => {
  const model = requireChatModel(ctx, 'Writing');
  const { title, note } = await noteText(ctx, userId, body.noteId);
  const text = body.text?.trim() ? body.text : undefined;
  return {
    model,
    purpose: 'writer',
    messages: assistMessages({
      action: body.action,
      ...(body.language ? { language: body.language } : {}),
      title,
      note,
      text,
    }),
  };
};

export const writerAskPrepare = async (
  ctx: AiContext,
  userId: string,
  body: Parsed<typeof WriterAskAi>,
): Promise<PreparedWriting> => {
  const model = requireChatModel(ctx, 'Asking AI');
  const saved = await noteText(ctx, userId, body.noteId);
  return {
    model,
    purpose: 'askai',
    messages: askMessages({
      title: saved.title,
      // What the editor holds is newer than what was saved.
      note: body.text ?? saved.note,
      question: body.question,
    }),
  };
};

/** Streams the model's answer token by token, then `done` with the usage. */
export const writerStream = async (
  ctx: AiContext,
  userId: string,
  prepared: PreparedWriting,
  send: Send,
  signal: AbortSignal,
) => {
  let usage: Usage | undefined;
  for await (const chunk of ctx.provider.chat(
    prepared.messages,
    { maxTokens: 2000, temperature: 0.4 },
    { userId, signal, purpose: prepared.purpose },
  )) {
    if (chunk.type === 'text') send({ type: 'token', text: chunk.text });
    else usage = chunk.usage;
  }
  send({ type: 'done', method: 'model', model: prepared.model, ...(usage ? { usage } : {}) });
};
