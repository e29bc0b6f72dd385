import { Button, useShell, type ButtonSize } from '@noted/ui';
import { useTranslation } from 'react-i18next';

/** "Sign in": opens the login dialog. */
export function SignInButton({
  primary = false,
  size = 'md',
}: {
  primary?: boolean;
  size?: ButtonSize;
}) {
  const { t } = useTranslation('shell');
  const shell = useShell();
  return (
    <Button
      variant={primary ? 'primary' : 'secondary'}
      size={size}
      aria-haspopup="dialog"
      onClick={shell.requestSignIn}
    >
      {t('auth.signIn')}
    </Button>
  );
}
