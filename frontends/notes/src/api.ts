import type { ApiClient } from '@noted/api';

/** The parts of the shell's ApiClient this module calls; a whole ApiClient fits. */
export type NotesApi = Pick<
  ApiClient,
  | 'notes'
  | 'tags'
  | 'links'
  | 'images'
  | 'todos'
  | 'review'
  | 'ai'
  | 'knowledge'
  | 'generate'
  | 'capture'
  | 'export'
>;
