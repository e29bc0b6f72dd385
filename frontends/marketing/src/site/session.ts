import { signedInHintKey } from '@noted/ui';

/** Whether the shell last found this browser signed in (its hint; see signedInHintKey). */
export const readSignedInHint = (): boolean => {
  try {
    return localStorage.getItem(signedInHintKey) === '1';
  } catch {
    return false;
  }
};
