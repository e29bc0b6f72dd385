import {
  ArrowUpRightIcon,
  BrainIcon,
  CameraIcon,
  DownloadIcon,
  NetworkIcon,
  RepeatIcon,
  SearchIcon,
  SparklesIcon,
  buttonClass,
  type IconComponent,
} from '@noted/ui';
import type { LandingData, PagePayload } from '../content/model';
import { useSite } from '../site/SiteContext';
import { Pricing } from './Pricing';

/** By the feature ids of `landing.md`; another id gets the sparkles. */
const featureIcons: Record<string, IconComponent> = {
  capture: CameraIcon,
  linking: NetworkIcon,
  review: RepeatIcon,
  search: SearchIcon,
  chat: BrainIcon,
  data: DownloadIcon,
};

/** A note as Noted shows it, drawn in HTML: the hero's picture, light to load and crisp. */
function ProductPicture() {
  const { t } = useSite();
  return (
    <figure className="landing-picture" aria-label={t('landing.mock.label')}>
      <div className="landing-window">
        <div className="landing-window-bar" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <div className="landing-note">
          <p className="landing-note-title">{t('landing.mock.title')}</p>
          <p className="landing-note-body">
            {t('landing.mock.body')
              .split(/(\[\[[^\]]+\]\])/)
              .map((part, index) =>
                part.startsWith('[[') ? (
                  <span key={index} className="landing-note-link">
                    {part.slice(2, -2)}
                  </span>
                ) : (
                  part
                ),
              )}
          </p>
          <p className="landing-note-tags">
            {t('landing.mock.tags')
              .split(/,\s*/)
              .map((tag) => (
                <span key={tag} className="ui-chip">
                  #{tag}
                </span>
              ))}
          </p>
          <div className="landing-note-backlinks">
            <p>{t('landing.mock.backlinks')}</p>
            <ul>
              <li>{t('landing.mock.backlink1')}</li>
              <li>{t('landing.mock.backlink2')}</li>
            </ul>
          </div>
        </div>
        <div className="landing-ask">
          <p className="landing-ask-question">{t('landing.mock.ask')}</p>
          <p className="landing-ask-answer">
            <SparklesIcon className="ui-icon" aria-hidden="true" />
            <span>{t('landing.mock.answer')}</span>
          </p>
        </div>
      </div>
    </figure>
  );
}

/** The page's main call: start (sign in) for a visitor, open the notes for someone signed in. */
function StartButton({ label }: { label: string }) {
  const { t, signIn, signedIn } = useSite();
  const look = buttonClass({ variant: 'primary', size: 'lg' });
  return signedIn ? (
    <a className={look} href="/">
      {t('nav.openApp')}
    </a>
  ) : (
    <button type="button" className={look} onClick={signIn}>
      {label}
    </button>
  );
}

function Hero({ landing }: { landing: LandingData }) {
  const { Link } = useSite();
  const { hero } = landing;
  return (
    <section className="landing-hero" aria-labelledby="landing-title">
      <div className="landing-hero-text">
        <p className="landing-eyebrow">{hero.eyebrow}</p>
        <h1 id="landing-title">{hero.title}</h1>
        <p className="landing-lede">{hero.lede}</p>
        <div className="landing-actions">
          <StartButton label={hero.primary} />
          <Link className={buttonClass({ variant: 'ghost', size: 'lg' })} to="/guide">
            {hero.secondary}
          </Link>
        </div>
      </div>
      <ProductPicture />
    </section>
  );
}

/** The landing page: hero, features, how it works, pricing, testimonials, FAQ, a last call. */
export function Landing({ page }: { page: PagePayload }) {
  const { t, Link } = useSite();
  const landing = page.landing;
  if (!landing) return null;
  return (
    <div className="landing">
      <Hero landing={landing} />

      <section id="features" className="landing-section" aria-labelledby="features-title">
        <h2 id="features-title">{t('landing.featuresTitle')}</h2>
        <p className="landing-section-lede">{t('landing.featuresLede')}</p>
        <ul className="landing-features">
          {landing.features.map((feature) => {
            const Icon = featureIcons[feature.id] ?? SparklesIcon;
            return (
              <li key={feature.id} className="landing-feature">
                <span className="landing-feature-icon" aria-hidden="true">
                  <Icon className="ui-icon" />
                </span>
                <h3>{feature.title}</h3>
                <p>{feature.body}</p>
                <Link to={feature.href} className="landing-more">
                  {t('landing.learnMore')}
                  <span className="visually-hidden">: {feature.title}</span>
                  <ArrowUpRightIcon className="ui-icon" aria-hidden="true" />
                </Link>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="steps-title">
        <h2 id="steps-title">{t('landing.stepsTitle')}</h2>
        <ol className="landing-steps">
          {landing.steps.map((step) => (
            <li key={step.title}>
              <h3>{step.title}</h3>
              <p>{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section id="pricing" className="landing-section" aria-labelledby="pricing-title">
        <h2 id="pricing-title">{landing.pricingTitle}</h2>
        {/* The lede describes the plans sold: a server that sells none says so instead. */}
        <Pricing lede={<p className="landing-section-lede">{landing.pricingLede}</p>} />
      </section>

      <section className="landing-section" aria-labelledby="testimonials-title">
        <h2 id="testimonials-title">{t('landing.testimonialsTitle')}</h2>
        <ul className="landing-testimonials">
          {landing.testimonials.map((testimonial) => (
            <li key={testimonial.name}>
              <figure>
                <blockquote>
                  <p>{testimonial.quote}</p>
                </blockquote>
                <figcaption>
                  <strong>{testimonial.name}</strong>
                  <span>{testimonial.role}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section id="faq" className="landing-section" aria-labelledby="faq-title">
        <h2 id="faq-title">{landing.faqTitle}</h2>
        <div className="landing-faq">
          {landing.faq.map((item) => (
            <details key={item.id} id={item.id}>
              <summary>{item.question}</summary>
              <div className="ui-prose" dangerouslySetInnerHTML={{ __html: item.html }} />
            </details>
          ))}
        </div>
      </section>

      <section className="landing-cta" aria-labelledby="cta-title">
        <h2 id="cta-title">{landing.ctaTitle}</h2>
        <p>{landing.ctaBody}</p>
        <StartButton label={landing.hero.primary} />
      </section>
    </div>
  );
}
