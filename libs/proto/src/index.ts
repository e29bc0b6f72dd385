/**
 * Generated contracts, one namespace per protobuf package (`notesV1.NotesService`,
 * `usersV1.EnsureUserRequestSchema`). Regenerate with `npm run proto`; never edit `gen/`.
 */
export * as aiV1 from './ai-v1.js';
export * as notesV1 from './notes-v1.js';
export * as usersV1 from './users-v1.js';
