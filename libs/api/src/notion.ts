import * as z from 'zod';
import { accepted, noContent, ok, routesFor } from './contract.js';
import { WHITE_SPACE } from './rules.js';

/** Where a Notion connection is: between runs, running, or stopped until it is connected again. */
export const NotionSyncStatus = z.enum(['idle', 'syncing', 'failed']).meta({
  id: 'NotionSyncStatus',
  description:
    'idle: waiting for its next run; syncing: a run is under way; failed: Notion refused the ' +
    'token, nothing more is tried until it is connected again',
});
export type NotionSyncStatus = z.infer<typeof NotionSyncStatus>;

/** A user's Notion connection as settings show it; the token itself is never answered. */
export const NotionConnection = z
  .object({
    connected: z.boolean(),
    workspaceName: z.string().optional(),
    status: NotionSyncStatus,
    lastSyncAt: z.iso.datetime().optional().meta({ description: 'When the last run ended' }),
    lastError: z
      .string()
      .optional()
      .meta({
        description:
          'The stable code of what stopped the last run (NOTION_TOKEN_INVALID, ' +
          'NOTES_LEFT_NOT_ENOUGH, UPSTREAM_UNAVAILABLE, RATE_LIMITED, ...); absent when it ended well',
      }),
    pagesSynced: z.number().int().min(0).meta({ description: 'Notion pages kept as notes' }),
    nextSyncAt: z.iso.datetime().optional(),
  })
  .meta({ id: 'NotionConnection' });
export type NotionConnection = z.infer<typeof NotionConnection>;

/** Visible ASCII, as an HTTP header carries it to Notion, with white space around it dropped. */
const NOTION_TOKEN = new RegExp(`^[${WHITE_SPACE}]*[!-~]+[${WHITE_SPACE}]*$`);

export const NotionConnect = z
  .strictObject({
    token: z
      .string()
      .max(500)
      .regex(NOTION_TOKEN, 'A Notion token is letters, digits and marks: ntn_… or secret_…')
      .trim()
      .meta({
        description:
          'A Notion internal integration token (ntn_… or secret_…), kept encrypted; white ' +
          'space around it is left out',
      }),
  })
  .meta({ id: 'NotionConnect' });
export type NotionConnect = z.input<typeof NotionConnect>;

const notionApi = routesFor('export', 'import');

/** The Notion connection: pages an integration sees kept as the caller's notes, on a schedule. */
export const notionRoutes = {
  notionConnectionGet: notionApi.get('/export/import/notion', {
    summary: "Your Notion connection's state: workspace, last run, its error, pages kept",
    answer: ok(NotionConnection, 'The connection (connected false when there is none)'),
  }),
  notionConnect: notionApi.put('/export/import/notion', {
    summary:
      'Connects Notion with an integration token (checked with Notion first) and starts a sync',
    body: NotionConnect,
    answer: ok(NotionConnection, 'The connection, its first sync under way'),
    errors: [
      [422, 'Notion refused the token (code NOTION_TOKEN_INVALID); nothing is stored'],
      [502, 'Notion could not be reached (code UPSTREAM_UNAVAILABLE); nothing is stored'],
    ],
  }),
  notionDisconnect: notionApi.delete('/export/import/notion', {
    summary: 'Forgets the token and the sync state; the notes already made stay',
    answer: noContent('Disconnected (also when there was no connection)'),
  }),
  notionSyncNow: notionApi.post('/export/import/notion/sync', {
    summary: 'Starts a sync now (or answers the one under way)',
    answer: accepted(NotionConnection, 'The sync is under way'),
    errors: [[409, 'Notion is not connected (code NOT_CONNECTED)']],
  }),
};
