/**
 * The device copy's code, loaded when a user signs in (a visitor's first page does without it):
 * its database, outbox and the API calls through them.
 */
export { deleteOfflineDatabases, openOfflineDatabase } from './database';
export { offlineNotes, offlineTags, trimKept } from './notes';
export { createOutbox } from './outbox';
