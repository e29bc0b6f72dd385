import type { ApiClient, FeedbackItem, FeedbackKind } from '@noted/api';
import {
  Button,
  FeedbackIcon,
  ImageIcon,
  LightbulbIcon,
  TriangleAlertIcon,
  errorMessage,
  formatDay,
  type IconComponent,
} from '@noted/ui';
import { useEffect, useId, useState } from 'react';
import type { Translate } from '../i18n';

export const kindIcons: Record<FeedbackKind, IconComponent> = {
  idea: LightbulbIcon,
  problem: TriangleAlertIcon,
  praise: FeedbackIcon,
};

const PAGE = 10;

/**
 * What a signed-in sender sent before, newest first, ten at a time: they can see it arrived and
 * what they said. Nothing is shown until there is something to show.
 */
export function SentFeedback({
  api,
  lang,
  t,
  sentCount,
}: {
  api: ApiClient;
  lang: string;
  t: Translate;
  /** How many were sent on this page so far: each one reads the list again. */
  sentCount: number;
}) {
  const ids = useId();
  const [items, setItems] = useState<FeedbackItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  /** Why the list could not be read, as the server said. */
  const [problem, setProblem] = useState<string | undefined>();

  // The newest page, again after each feedback sent here.
  useEffect(() => {
    let current = true;
    api.feedback.mine({ limit: PAGE }).then(
      (page) => {
        if (!current) return;
        setItems(page.items);
        setNextCursor(page.nextCursor);
        setProblem(undefined);
      },
      (error: unknown) => current && setProblem(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [api, sentCount]);

  const showOlder = async (cursor: string) => {
    setLoading(true);
    try {
      const page = await api.feedback.mine({ limit: PAGE, cursor });
      setItems((shown) => [...shown, ...page.items]);
      setNextCursor(page.nextCursor);
      setProblem(undefined);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setLoading(false);
    }
  };

  if (items.length === 0 && !problem) return null;
  return (
    <section className="feedback-sent" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="ui-overline">
        {t('feedback.sent.title')}
      </h2>
      {problem ? <p className="ui-hint">{t('feedback.sent.failed', { reason: problem })}</p> : null}
      <ol>
        {items.map((item) => {
          const Icon = kindIcons[item.kind];
          return (
            <li key={item.id} className="feedback-sent-item">
              <p className="feedback-sent-meta">
                <Icon className="ui-icon" aria-hidden="true" />
                <strong>{t(`feedback.kind.${item.kind}`)}</strong>
                <time dateTime={item.createdAt}>{formatDay(item.createdAt, lang)}</time>
                {item.hasScreenshot ? (
                  <span className="feedback-sent-shot">
                    <ImageIcon className="ui-icon" aria-hidden="true" />
                    {t('feedback.sent.screenshot')}
                  </span>
                ) : null}
              </p>
              <p className="feedback-sent-message">{item.message}</p>
            </li>
          );
        })}
      </ol>
      {nextCursor ? (
        <Button
          size="sm"
          variant="ghost"
          loading={loading}
          onClick={() => void showOlder(nextCursor)}
        >
          {t('feedback.sent.older')}
        </Button>
      ) : null}
    </section>
  );
}
