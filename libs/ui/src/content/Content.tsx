import type { ReactNode } from 'react';
import { IconButton } from '../button/Button';
import {
  CircleCheckIcon,
  CircleXIcon,
  InfoIcon,
  TriangleAlertIcon,
  XIcon,
  type IconComponent,
} from '../icons/icons';

export type CalloutTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const calloutIcons: Record<CalloutTone, IconComponent> = {
  neutral: InfoIcon,
  info: InfoIcon,
  success: CircleCheckIcon,
  warning: TriangleAlertIcon,
  danger: CircleXIcon,
};

export interface CalloutProps {
  tone?: CalloutTone;
  title?: ReactNode;
  /** Buttons at the end (Retry, ...). */
  actions?: ReactNode;
  /** 'alert' for what failed, 'status' for what changed; none for a standing notice. */
  role?: 'alert' | 'status';
  icon?: IconComponent;
  className?: string;
  /** Adds a button that takes the notice away, named `dismissLabel`. */
  onDismiss?: () => void;
  dismissLabel?: string;
  children?: ReactNode;
}

/** A notice in the flow of the page: what failed (with Retry), a warning, a tip. */
export function Callout({
  tone = 'neutral',
  title,
  actions,
  role,
  icon,
  className,
  onDismiss,
  dismissLabel = '',
  children,
}: CalloutProps) {
  const Icon = icon ?? calloutIcons[tone];
  return (
    <div
      className={['ui-callout', `ui-callout-${tone}`, className ?? ''].filter(Boolean).join(' ')}
      role={role}
    >
      <Icon className="ui-icon" aria-hidden="true" />
      <div className="ui-callout-body">
        {title ? <p className="ui-callout-title">{title}</p> : null}
        {children}
      </div>
      {actions || onDismiss ? (
        <div className="ui-callout-actions">
          {actions}
          {onDismiss ? (
            <IconButton label={dismissLabel} icon={XIcon} size="sm" onClick={onDismiss} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** A note's tags as a row of chips, read-only (a shared note, a preview, a card to review). */
export function TagChips({ tags, label }: { tags: string[]; label: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="ui-tags" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag} className="ui-chip">
          #{tag}
        </li>
      ))}
    </ul>
  );
}

export interface EmptyStateProps {
  icon: IconComponent;
  title: ReactNode;
  children?: ReactNode;
  /** A button or link that gets the user going. */
  action?: ReactNode;
  /** The heading level of the title, so it fits the page's outline (1 when it is the page). */
  level?: 1 | 2 | 3;
}

/** What a page shows when there is nothing yet: an icon, a title, a line of help, an action. */
export function EmptyState({ icon: Icon, title, children, action, level = 2 }: EmptyStateProps) {
  const Heading = (['h1', 'h2', 'h3'] as const)[level - 1] ?? 'h2';
  return (
    <div className="ui-empty">
      <span className="ui-empty-icon" aria-hidden="true">
        <Icon className="ui-icon" />
      </span>
      <Heading className="ui-empty-title">{title}</Heading>
      {children ? <div className="ui-empty-text">{children}</div> : null}
      {action ? <div className="ui-empty-action">{action}</div> : null}
    </div>
  );
}

export interface SkeletonProps {
  /** Lines of text to stand in for. */
  lines?: number;
  /** Blocks (cards) to stand in for, each with a few lines. */
  blocks?: number;
  /** Said to assistive technology while loading ("Loading notes…"). */
  label: string;
  className?: string;
}

/** Grey shapes where content is on its way; announced once as `label`. */
export function Skeleton({ lines = 3, blocks = 0, label, className }: SkeletonProps) {
  return (
    <div className={['ui-skeleton', className ?? ''].filter(Boolean).join(' ')} role="status">
      <span className="visually-hidden">{label}</span>
      {blocks > 0
        ? Array.from({ length: blocks }, (_, block) => (
            <div key={block} className="ui-skeleton-card" aria-hidden="true">
              {Array.from({ length: lines }, (_, line) => (
                <span key={line} className="ui-skeleton-line" />
              ))}
            </div>
          ))
        : Array.from({ length: lines }, (_, line) => (
            <span key={line} className="ui-skeleton-line" aria-hidden="true" />
          ))}
    </div>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** The h1's id, for a section labelled by it. */
  titleId?: string;
}

/** The head of a page: its level-one title, a line under it, and its actions. */
export function PageHeader({ title, description, actions, titleId }: PageHeaderProps) {
  return (
    <header className="ui-page-header">
      <div className="ui-page-header-text">
        <h1 id={titleId}>{title}</h1>
        {description ? <p className="ui-page-header-description">{description}</p> : null}
      </div>
      {actions ? <div className="ui-page-header-actions">{actions}</div> : null}
    </header>
  );
}

export interface ProgressProps {
  /** What is under way, shown above the bar and its accessible name. */
  label: string;
  /** How far, of `max`; without them the bar shows activity only (with a spinner). */
  value?: number;
  max?: number;
  /** Announces the label as it changes (role status), for progress a person waits on. */
  live?: boolean;
}

/** A labelled progress bar: indeterminate (a moving band) until `value` of `max` is known. */
export function Progress({ label, value, max, live = false }: ProgressProps) {
  const known = value !== undefined && max !== undefined && max > 0;
  const share = known ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div className="ui-progress" role={live ? 'status' : undefined}>
      <span className="ui-progress-label" aria-hidden={live ? undefined : true}>
        {known ? null : <span className="ui-spinner" aria-hidden="true" />}
        {label}
      </span>
      <span
        className="ui-progress-bar"
        role="progressbar"
        aria-label={label}
        data-determinate={known ? '' : undefined}
        {...(known ? { 'aria-valuenow': value, 'aria-valuemin': 0, 'aria-valuemax': max } : {})}
      >
        <span style={known ? { width: `${Math.round(share * 100)}%` } : undefined} />
      </span>
    </div>
  );
}
