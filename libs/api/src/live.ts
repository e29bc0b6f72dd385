import * as z from 'zod';
import { created, routesFor, upgrade } from './contract.js';
import { Note } from './notes.js';

/**
 * The live connection (spec sections 3 and 7): a WebSocket at `/ws?token=…`, where the token
 * is `userId.timestamp.signature` (HMAC-SHA256 of `userId.timestamp`), issued to a signed-in
 * user by `POST /ws/token` and good for a short while. The server only pushes; what it pushes
 * is a hint that something changed, and a client that (re)connects reads what it shows again.
 */
export const LiveToken = z
  .object({
    token: z.string().meta({ description: 'userId.timestamp.signature (HMAC-SHA256, base64url)' }),
    expiresAt: z.iso
      .datetime()
      .meta({ description: 'Connect before then; a connection outlives it' }),
    url: z.string().meta({ description: 'Where to connect: /ws?token=… on this origin' }),
  })
  .meta({ id: 'LiveToken' });
export type LiveToken = z.infer<typeof LiveToken>;

export const LiveConnectQuery = z.object({
  token: z.string().max(512).meta({ description: 'A token from POST /ws/token' }),
});

/** A note as the live connection carries it: the API's note, without its capture state. */
export const LiveNote = Note.omit({ capture: true }).meta({ id: 'LiveNote' });
export type LiveNote = z.infer<typeof LiveNote>;

/** What the server sends, one JSON object a frame. */
export const LiveMessage = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('connection'), status: z.literal('success') }),
    z.object({
      type: z.literal('welcome'),
      message: z.string(),
      serverTime: z.iso.datetime(),
    }),
    z.object({
      type: z.literal('noteReview'),
      notes: z.array(LiveNote).meta({ description: 'Notes that fell due for review' }),
    }),
    z.object({
      type: z.literal('noteUpdated'),
      change: z.enum(['created', 'updated']),
      note: LiveNote,
    }),
    z.object({ type: z.literal('noteDeleted'), noteId: z.uuid() }),
  ])
  .meta({ id: 'LiveMessage' });
export type LiveMessage = z.infer<typeof LiveMessage>;
export type LiveMessageType = LiveMessage['type'];

const liveApi = routesFor('realtime', 'Live');

export const liveRoutes = {
  liveToken: liveApi.post('/ws/token', {
    summary:
      'A token for the live connection, for the signed-in caller: short-lived, for one connect',
    answer: created(LiveToken, 'The token and where to connect'),
  }),
  liveConnect: liveApi.get('/ws', {
    summary:
      'The live connection: a WebSocket upgrade with a token from POST /ws/token. The server ' +
      'sends LiveMessage frames (connection, welcome, noteReview, noteUpdated, noteDeleted) ' +
      'and pings every 30 s; a request without an upgrade answers 426',
    public: true,
    query: LiveConnectQuery,
    answer: upgrade(LiveMessage, 'Switching to the WebSocket protocol'),
    errors: [
      [401, 'The token is missing, malformed, tampered with, expired or of no user'],
      [403, 'The Origin is not this site'],
      [426, 'Not a WebSocket upgrade (code UPGRADE_REQUIRED)'],
      [503, 'Too many connections: for this user or for this server (code UNAVAILABLE)'],
    ],
  }),
};
