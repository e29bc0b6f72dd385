import type { routes } from '@noted/api';
import type { Handlers } from '@noted/kit';
import type { AiContext } from '../context.js';
import { aiSettingsGet, aiSettingsUpdate } from './usecases.js';

export const settingsHandlers = (
  ctx: AiContext,
): Handlers<Pick<typeof routes, 'aiSettingsGet' | 'aiSettingsUpdate'>> => ({
  aiSettingsGet: ({ userId }) => aiSettingsGet(ctx, userId),
  aiSettingsUpdate: ({ userId, body }) => aiSettingsUpdate(ctx, userId, body),
});
