import { BrainIcon, Callout, NetworkIcon, RepeatIcon, SquarePenIcon, buttonClass } from '@noted/ui';
import type { IconComponent } from '@noted/ui';
import { useTranslation } from 'react-i18next';
import { Link } from '@noted/router';
import type { AuthNotice } from '../auth/identityErrors';
import { SignInButton } from '../auth/SignInButton';
import { BrandMark } from '@noted/ui';

const features: { key: string; icon: IconComponent }[] = [
  { key: 'capture', icon: SquarePenIcon },
  { key: 'link', icon: NetworkIcon },
  { key: 'review', icon: RepeatIcon },
  { key: 'ask', icon: BrainIcon },
];

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
      <div className="welcome-hero">
        <BrandMark />
        <h1 id="welcome-title">{privatePage ? t('welcome.privateTitle') : t('welcome.title')}</h1>
        <p className="welcome-lead">{privatePage ? t('welcome.privateBody') : t('welcome.body')}</p>
        {notice ? (
          <Callout tone="info" role="status" className="welcome-notice">
            {tShell(`auth.notice.${notice}`)}
          </Callout>
        ) : null}
        <div className="welcome-actions">
          <SignInButton primary size="lg" />
          {privatePage ? null : (
            <Link className={buttonClass({ size: 'lg', variant: 'ghost' })} to="/guide">
              {t('welcome.tour')}
            </Link>
          )}
        </div>
      </div>
      {privatePage ? null : (
        <ul className="welcome-features" aria-label={t('welcome.featuresLabel')}>
          {features.map(({ key, icon: Icon }) => (
            <li key={key} className="ui-card welcome-feature">
              <span className="welcome-feature-icon" aria-hidden="true">
                <Icon className="ui-icon" />
              </span>
              <h2>{t(`welcome.features.${key}.title`)}</h2>
              <p>{t(`welcome.features.${key}.body`)}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
