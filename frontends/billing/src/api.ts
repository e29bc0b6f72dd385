import type { ApiClient } from '@noted/api';

/** The parts of the shell's ApiClient this module calls; a whole ApiClient fits. */
export type BillingApi = Pick<ApiClient, 'billing'>;
