import { useShell } from '@noted/ui';
import { useTranslation } from 'react-i18next';

/** "Sign in": opens the login dialog. */
export function SignInButton({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation('shell');
  const shell = useShell();
  return (
    <button
      type="button"
      className={primary ? 'ui-button ui-button-primary' : 'ui-button'}
      aria-haspopup="dialog"
      onClick={shell.requestSignIn}
    >
      {t('auth.signIn')}
    </button>
  );
}
