import type { ApiClient } from '@noted/api';

/** The part of the shell's ApiClient this module calls; a whole ApiClient fits. */
export interface NotesApi {
  notes: Pick<
    ApiClient['notes'],
    'list' | 'create' | 'remove' | 'pin' | 'unpin' | 'share' | 'unshare'
  >;
}
