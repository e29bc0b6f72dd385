import { createLog } from '@noted/ui';

export const log = createLog('billing');
