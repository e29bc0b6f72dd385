import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import type { IconComponent } from '../icons/icons';

export type ButtonVariant = 'secondary' | 'primary' | 'danger' | 'ghost' | 'danger-ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A square button holding only an icon. */
  iconOnly?: boolean;
  /** As wide as its container. */
  block?: boolean;
  className?: string;
}

/** The class names of a button's look, for a link or label that should look like one. */
export const buttonClass = ({
  variant = 'secondary',
  size = 'md',
  iconOnly = false,
  block = false,
  className,
}: ButtonLook = {}): string =>
  [
    'ui-button',
    variant === 'secondary' ? '' : `ui-button-${variant}`,
    size === 'md' ? '' : `ui-button-${size}`,
    iconOnly ? 'ui-button-icon' : '',
    block ? 'ui-button-block' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');

export interface ButtonProps
  extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'>, Omit<ButtonLook, 'iconOnly'> {
  /** An icon before the text. */
  icon?: IconComponent;
  /** A keyboard shortcut shown after the text, e.g. "⌘↵". */
  shortcut?: ReactNode;
  /** Shows a spinner instead of the icon, and marks the button busy. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** A button of the design system; `type` is "button" unless said otherwise. */
export function Button({
  variant,
  size,
  block,
  className,
  icon: Icon,
  shortcut,
  loading = false,
  type = 'button',
  children,
  ref,
  ...rest
}: ButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass({ variant, size, block, className })}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <span className="ui-spinner" aria-hidden="true" />
      ) : Icon ? (
        <Icon className="ui-icon" aria-hidden="true" />
      ) : null}
      {children}
      {shortcut ? (
        <kbd className="ui-kbd" aria-hidden="true">
          {shortcut}
        </kbd>
      ) : null}
    </button>
  );
}

export interface IconButtonProps
  extends
    Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'children'>,
    Omit<ButtonLook, 'iconOnly' | 'block'> {
  /** The button's name: read by assistive technology and shown as a tooltip. */
  label: string;
  icon: IconComponent;
  ref?: Ref<HTMLButtonElement>;
}

/** A square button showing only an icon; `label` names it (and is its tooltip). */
export function IconButton({
  label,
  icon: Icon,
  variant = 'ghost',
  size,
  className,
  type = 'button',
  ref,
  ...rest
}: IconButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      aria-label={label}
      title={label}
      className={buttonClass({ variant, size, iconOnly: true, className })}
      {...rest}
    >
      <Icon className="ui-icon" aria-hidden="true" />
    </button>
  );
}
