import { randomUUID } from 'node:crypto';
import { AppError, type RoutesOf } from '@noted/api';
import { identityOf, type Handlers } from '@noted/kit';
import { createNotionClient, notionIdentity } from '../import/notion-sync.js';
import {
  NOTION_SYNC_LEASE_SECONDS,
  presentConnection,
  startConnectionSync,
  type NotionContext,
} from './sync.js';

type NotionRoutes = Pick<
  RoutesOf<'export'>,
  'notionConnectionGet' | 'notionConnect' | 'notionDisconnect' | 'notionSyncNow'
>;

/** The user's connection as the routes show it (never the token). */
export const notionState = async (ctx: NotionContext, userId: string) =>
  presentConnection(await ctx.repository.find(userId), await ctx.repository.pagesSynced(userId));

/**
 * Who the token is, asked of Notion before anything is kept: a refused token is
 * NOTION_TOKEN_INVALID, Notion out of reach UPSTREAM_UNAVAILABLE.
 */
const checkToken = async (ctx: NotionContext, token: string) => {
  try {
    return await notionIdentity(
      createNotionClient(token, { baseUrl: ctx.apiUrl, retry: { maxRetries: 1 } }),
    );
  } catch (error) {
    const reason = (error as AppError).details as { reason?: string } | undefined;
    if (error instanceof AppError && reason?.reason === 'NOTION_UNAUTHORIZED') {
      throw new AppError(
        'NOTION_TOKEN_INVALID',
        'Notion did not accept this token: copy the internal integration secret again',
      );
    }
    throw error;
  }
};

/** The Notion connection's routes: always the caller's own connection. */
export const notionHandlers = (ctx: NotionContext): Handlers<NotionRoutes> => ({
  notionConnectionGet: async ({ userId }) => notionState(ctx, userId),
  notionConnect: async ({ req, body }) => {
    const identity = identityOf(req);
    const who = await checkToken(ctx, body.token);
    const claim = randomUUID();
    const row = await ctx.repository.connect(
      {
        userId: identity.userId,
        sub: identity.sub,
        email: identity.email,
        name: identity.name,
        token: ctx.tokens.seal(body.token),
        workspaceId: who.workspaceId,
        workspaceName: who.workspaceName,
        botId: who.botId,
      },
      claim,
    );
    startConnectionSync(ctx, row);
    return presentConnection(row, await ctx.repository.pagesSynced(identity.userId));
  },
  notionDisconnect: async ({ userId }) => {
    await ctx.repository.forget(userId);
  },
  notionSyncNow: async ({ userId }) => {
    const row = await ctx.repository.claimOne(userId, randomUUID(), NOTION_SYNC_LEASE_SECONDS);
    if (row) {
      startConnectionSync(ctx, row);
      return presentConnection(row, await ctx.repository.pagesSynced(userId));
    }
    const state = await notionState(ctx, userId);
    if (!state.connected) {
      throw new AppError('NOT_CONNECTED', 'Notion is not connected: connect it with a token first');
    }
    return state;
  },
});
