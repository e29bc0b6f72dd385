import { useTranslation } from 'react-i18next';
import type { AuthNotice } from '../auth/identityErrors';
import { SignInButton } from '../auth/SignInButton';

/** The signed-out home page, and what a signed-out visitor of a private page sees. */
export function Welcome({
  notice,
  privatePage = false,
}: {
  notice?: AuthNotice;
  privatePage?: boolean;
}) {
  const { t } = useTranslation('landing');
  const { t: tShell } = useTranslation('shell');
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">{privatePage ? t('welcome.privateTitle') : t('welcome.title')}</h1>
      <p>{privatePage ? t('welcome.privateBody') : t('welcome.body')}</p>
      {notice ? (
        <p className="notice" role="status">
          {tShell(`auth.notice.${notice}`)}
        </p>
      ) : null}
      <SignInButton primary />
    </section>
  );
}
