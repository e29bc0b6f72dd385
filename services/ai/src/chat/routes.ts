import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { streamEvents } from '../sse.js';
import { chatAnswer, chatGet, chatList, chatRemove } from './usecases.js';

type ChatRoutes = Pick<
  typeof routes,
  'knowledgeChatAnswer' | 'knowledgeChatList' | 'knowledgeChatGet' | 'knowledgeChatDelete'
>;

export const chatHandlers = (ctx: AiContext): Handlers<ChatRoutes> => ({
  knowledgeChatAnswer: async ({ userId, body, req, res }) => {
    // The question and the conversation are checked before the stream opens.
    const answer = await chatAnswer(ctx, userId, body);
    await streamEvents(req, res, ctx.logger, answer, ctx.streams.acquire(userId));
  },
  knowledgeChatList: ({ userId, query }) => chatList(ctx, userId, query),
  knowledgeChatGet: ({ userId, params }) => chatGet(ctx, userId, params),
  knowledgeChatDelete: ({ userId, params }) => chatRemove(ctx, userId, params),
});
