/**
 * Background Sync between the page and the service worker (`sw/sw.ts` imports this too): the
 * tag the page registers while changes wait, and the message the worker posts to the open
 * pages when the browser fires it.
 */
export const syncTag = 'noted-outbox';
export const sendMessage = 'noted:send-outbox';
