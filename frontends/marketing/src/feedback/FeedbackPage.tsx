import '../marketing.css';
import type { ApiClient, FeedbackKind } from '@noted/api';
import {
  Button,
  Callout,
  CircleCheckIcon,
  ImagePlusIcon,
  PageHeader,
  ShellContext,
  XIcon,
  errorMessage,
  formatNumber,
  isLocale,
  type ShellServices,
} from '@noted/ui';
import { Link } from '@noted/router';
import { useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { translator } from '../i18n';
import { SentFeedback, kindIcons } from './SentFeedback';

export interface FeedbackPageProps {
  api: ApiClient;
  shell: ShellServices;
}

const kinds = (['idea', 'problem', 'praise'] as const).map((kind) => ({
  kind,
  icon: kindIcons[kind],
}));

export const messageMaxChars = 5000;
export const screenshotMaxBytes = 2 * 1024 * 1024;
const screenshotTypes = ['image/png', 'image/jpeg', 'image/webp'];

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });

/** Where the sender came from in this app, when they came from a page of it. */
const previousPath = (): string | undefined => {
  try {
    const from = new URL(document.referrer);
    return from.origin === window.location.origin && from.pathname !== '/feedback'
      ? from.pathname.slice(0, 300)
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The feedback page (in the app's layout, with its sidebar): what it is about, the message, an
 * address to answer when signed out, an optional screenshot; then a thank-you.
 */
export default function FeedbackPage({ api, shell }: FeedbackPageProps) {
  const lang = isLocale(shell.i18n.language) ? shell.i18n.language : 'en';
  const t = translator(lang);
  const account = useSyncExternalStore(shell.account.subscribe, shell.account.get);
  const signedIn = account.phase !== 'signedOut';
  const [kind, setKind] = useState<FeedbackKind>('idea');
  const [message, setMessage] = useState('');
  const [email, setEmail] = useState('');
  const [screenshot, setScreenshot] = useState<{ name: string; dataUrl: string } | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');
  const [sentCount, setSentCount] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = useId();

  const chooseScreenshot = async (file: File | undefined) => {
    setProblem(undefined);
    if (!file) return;
    if (!screenshotTypes.includes(file.type)) {
      setProblem(t('feedback.screenshot.wrongType'));
    } else if (file.size > screenshotMaxBytes) {
      setProblem(t('feedback.screenshot.tooLarge'));
    } else {
      setScreenshot({ name: file.name, dataUrl: await readDataUrl(file) });
    }
    if (fileInput.current) fileInput.current.value = '';
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      setProblem(t('feedback.required'));
      return;
    }
    setProblem(undefined);
    setState('sending');
    const page = previousPath();
    try {
      await api.feedback.send({
        kind,
        message: message.trim(),
        ...(!signedIn && email.trim() ? { email: email.trim() } : {}),
        ...(page ? { page } : {}),
        ...(screenshot ? { screenshot: screenshot.dataUrl } : {}),
      });
      setState('sent');
      setSentCount((count) => count + 1);
    } catch (error) {
      setProblem(t('feedback.failed', { reason: errorMessage(error) }));
      setState('editing');
    }
  };

  const restart = () => {
    setMessage('');
    setScreenshot(undefined);
    setState('editing');
  };

  return (
    <ShellContext.Provider value={shell}>
      <div className="feedback-page" lang={lang}>
        <PageHeader title={t('feedback.title')} description={t('feedback.lede')} />
        <div className="feedback-columns">
          <div className="feedback-main">
            {state === 'sent' ? (
              <section
                className="feedback-thanks ui-card"
                role="status"
                aria-labelledby={`${ids}-thanks`}
              >
                <CircleCheckIcon className="ui-icon feedback-thanks-icon" aria-hidden="true" />
                <h2 id={`${ids}-thanks`}>{t('feedback.thanks.title')}</h2>
                <p>{t('feedback.thanks.body')}</p>
                <Button variant="primary" onClick={restart}>
                  {t('feedback.again')}
                </Button>
              </section>
            ) : (
              <form className="feedback-form ui-card" onSubmit={send} noValidate>
                <fieldset className="feedback-kinds">
                  <legend className="ui-label">{t('feedback.kind')}</legend>
                  {kinds.map(({ kind: value, icon: Icon }) => (
                    <label key={value} className="feedback-kind">
                      <input
                        type="radio"
                        name="kind"
                        value={value}
                        checked={kind === value}
                        onChange={() => setKind(value)}
                      />
                      <Icon className="ui-icon" aria-hidden="true" />
                      <span>
                        <strong>{t(`feedback.kind.${value}`)}</strong>
                        <small>{t(`feedback.kind.${value}.hint`)}</small>
                      </span>
                    </label>
                  ))}
                </fieldset>
                <div className="ui-field">
                  <label className="ui-label" htmlFor={`${ids}-message`}>
                    {t('feedback.message')}
                  </label>
                  <textarea
                    id={`${ids}-message`}
                    className="ui-input feedback-message"
                    rows={7}
                    maxLength={messageMaxChars}
                    required
                    value={message}
                    placeholder={t(`feedback.message.placeholder.${kind}`)}
                    onChange={(event) => setMessage(event.target.value)}
                    aria-describedby={`${ids}-count`}
                  />
                  <p className="ui-hint feedback-count" id={`${ids}-count`}>
                    {t('feedback.count', {
                      count: formatNumber(message.length, lang),
                      max: formatNumber(messageMaxChars, lang),
                    })}
                  </p>
                </div>
                {signedIn ? null : (
                  <div className="ui-field">
                    <label className="ui-label" htmlFor={`${ids}-email`}>
                      {t('feedback.email')}
                    </label>
                    <input
                      id={`${ids}-email`}
                      className="ui-input"
                      type="email"
                      autoComplete="email"
                      value={email}
                      onChange={(event) => setEmail(event.target.value)}
                      aria-describedby={`${ids}-email-hint`}
                    />
                    <p className="ui-hint" id={`${ids}-email-hint`}>
                      {t('feedback.email.hint')}
                    </p>
                  </div>
                )}
                <div className="ui-field">
                  <span className="ui-label" id={`${ids}-shot`}>
                    {t('feedback.screenshot')}
                  </span>
                  {screenshot ? (
                    <div className="feedback-shot">
                      <img src={screenshot.dataUrl} alt={screenshot.name} />
                      <span>{screenshot.name}</span>
                      <Button
                        size="sm"
                        variant="ghost"
                        icon={XIcon}
                        onClick={() => setScreenshot(undefined)}
                      >
                        {t('feedback.screenshot.remove')}
                      </Button>
                    </div>
                  ) : (
                    <label className="feedback-drop">
                      <ImagePlusIcon className="ui-icon" aria-hidden="true" />
                      <span>{t('feedback.screenshot.hint')}</span>
                      <input
                        ref={fileInput}
                        type="file"
                        accept={screenshotTypes.join(',')}
                        aria-labelledby={`${ids}-shot`}
                        onChange={(event) => void chooseScreenshot(event.target.files?.[0])}
                      />
                    </label>
                  )}
                </div>
                {problem ? (
                  <Callout tone="danger" role="alert">
                    {problem}
                  </Callout>
                ) : null}
                <div className="feedback-actions">
                  <Button type="submit" variant="primary" loading={state === 'sending'}>
                    {state === 'sending' ? t('feedback.sending') : t('feedback.send')}
                  </Button>
                </div>
              </form>
            )}
            {signedIn ? <SentFeedback api={api} lang={lang} t={t} sentCount={sentCount} /> : null}
          </div>
          <aside className="feedback-aside" aria-labelledby={`${ids}-aside`}>
            <h2 id={`${ids}-aside`} className="ui-overline">
              {t('feedback.aside.title')}
            </h2>
            <ul>
              <li>{t('feedback.aside.read')}</li>
              <li>{t('feedback.aside.problem')}</li>
              <li>{t('feedback.aside.private')}</li>
            </ul>
            <p>
              <Link to="/guide">{t('feedback.aside.guide')}</Link>
            </p>
          </aside>
        </div>
      </div>
    </ShellContext.Provider>
  );
}
