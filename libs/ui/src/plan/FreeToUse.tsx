import { useId, type ReactNode } from 'react';
import { CircleCheckIcon, InfoIcon } from '../icons/icons';

export interface FreeToUseProps {
  /** "This server is free to use". */
  title: string;
  /** Every feature and no monthly limit; or that whoever runs the server set the limits listed. */
  body: string;
  /** The limits whoever runs the server set, in words; none by default. */
  limits?: string[];
  /** The list's accessible name ("Limits on this server"). */
  limitsLabel?: string;
  /** A way on (back to the notes, sign in), under the words. */
  actions?: ReactNode;
  /** The title as a heading of this level; a plain strong line inside a panel or dialog. */
  level?: 1 | 2 | 3;
  /** 'notice' in a panel, a dialog or a section; 'page' as the whole of a page, centred. */
  layout?: 'notice' | 'page';
  className?: string;
}

/**
 * What every plan screen says on a server that takes no payments: it is free to use, every
 * feature and no monthly limit unless whoever runs it set limits (then those are listed), with
 * nothing to buy. One look everywhere; the words are given by the screen's own message set
 * (the billing remote's, the site's), so this stays free of any i18n library.
 */
export function FreeToUse({
  title,
  body,
  limits = [],
  limitsLabel,
  actions,
  level,
  layout = 'notice',
  className,
}: FreeToUseProps) {
  const titleId = useId();
  const Title = level ? (`h${level}` as const) : 'p';
  return (
    <section
      className={['ui-free', layout === 'page' ? 'ui-free-page' : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
      aria-labelledby={titleId}
    >
      <span className="ui-free-icon" aria-hidden="true">
        <CircleCheckIcon className="ui-icon" />
      </span>
      <div className="ui-free-body">
        <Title id={titleId} className="ui-free-title">
          {title}
        </Title>
        <p className="ui-free-text">{body}</p>
        {limits.length > 0 ? (
          <ul className="ui-free-limits" aria-label={limitsLabel}>
            {limits.map((limit) => (
              <li key={limit}>
                <InfoIcon className="ui-icon" aria-hidden="true" />
                {limit}
              </li>
            ))}
          </ul>
        ) : null}
        {actions ? <div className="ui-free-actions">{actions}</div> : null}
      </div>
    </section>
  );
}
