/**
 * Generated contracts, one namespace per protobuf package (`notesV1.NotesService`,
 * `usersV1.EnsureUserRequestSchema`). Regenerate with `npm run proto`; never edit `gen/`.
 * Every event's subject and message are declared once, in `events.ts`.
 */
export * as aiV1 from './ai-v1.js';
export * as billingV1 from './billing-v1.js';
export * as notesV1 from './notes-v1.js';
export * as usersV1 from './users-v1.js';
export {
  EVENT_USER_HEADER,
  billingEvents,
  captureEvents,
  feedbackEvents,
  noteEvents,
  noteEventsFilter,
  reviewEvents,
  userEventHeaders,
  userEvents,
  type EventType,
} from './events.js';
export {
  entitlementsFromMessage,
  entitlementsToMessage,
  type EntitlementValues,
} from './entitlements.js';
