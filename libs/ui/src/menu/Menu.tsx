import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { buttonClass, type ButtonLook } from '../button/Button';
import type { IconComponent } from '../icons/icons';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  icon?: IconComponent;
  /** Destructive (Delete): shown in the danger colour. */
  danger?: boolean;
  disabled?: boolean;
  /**
   * A short line under the label: what choosing it means ("In paid plans"), or why it is
   * disabled ("Not offered on this server"). A disabled entry with a hint can still be reached
   * with the arrow keys, so its reason is heard; it still cannot be chosen.
   */
  hint?: string;
  /** A mark at the entry's end (a lock on what the plan leaves out); say it in `accessibleLabel`. */
  mark?: IconComponent;
  /** The entry's name for assistive technology when it says more than the label. */
  accessibleLabel?: string;
}

export type MenuEntry = MenuAction | 'separator';

export interface MenuProps {
  /** The menu button's name (aria-label and tooltip when it shows only an icon). */
  label: string;
  entries: MenuEntry[];
  /** The icon of an icon-only menu button. */
  icon?: IconComponent;
  /** What the menu button shows instead of an icon (e.g. an avatar and a name). */
  trigger?: ReactNode;
  /** The menu button's look. */
  look?: Omit<ButtonLook, 'iconOnly'>;
  /** Shown at the top of the open menu, above the entries (e.g. who is signed in). */
  header?: ReactNode;
  /** Which edge of the button the menu lines up with. */
  align?: 'start' | 'end';
}

/** The entries the arrow keys move through: enabled ones, and disabled ones that say why. */
const items = (menu: HTMLElement | null) =>
  menu
    ? [
        ...menu.querySelectorAll<HTMLElement>(
          '[role="menuitem"]:not([aria-disabled="true"]), [role="menuitem"][data-hint]',
        ),
      ]
    : [];

/**
 * A menu button (WAI-ARIA menu button pattern): opens on click, Enter, Space or ArrowDown
 * with the first entry focused; ArrowUp/ArrowDown/Home/End move, Enter chooses, Escape closes
 * back to the button, Tab or a click outside closes. It opens above the button when there is
 * no room below.
 */
export function Menu({
  label,
  entries,
  icon: Icon,
  trigger,
  look,
  header,
  align = 'end',
}: MenuProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [above, setAbove] = useState(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!open || !menuRef.current || !buttonRef.current) return;
    const button = buttonRef.current.getBoundingClientRect();
    const height = menuRef.current.offsetHeight;
    setAbove(button.bottom + height + 8 > window.innerHeight && button.top - height - 8 > 0);
    // A menu wider than the room beside its button moves sideways to stay on the screen (a
    // phone, a menu whose entries say why); the menu is new at every opening, so it is measured
    // where it stands.
    const box = menuRef.current.getBoundingClientRect();
    const margin = 8;
    const nudge =
      box.left < margin
        ? margin - box.left
        : box.right > window.innerWidth - margin
          ? window.innerWidth - margin - box.right
          : 0;
    if (nudge && box.width > 0) menuRef.current.style.translate = `${Math.round(nudge)}px 0`;
    items(menuRef.current)[0]?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items(menuRef.current);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const focus = (index: number) => list[(index + list.length) % list.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focus(at + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focus(at - 1);
        break;
      case 'Home':
        event.preventDefault();
        focus(0);
        break;
      case 'End':
        event.preventDefault();
        focus(list.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        close(true);
        break;
      case 'Tab':
        close(false);
        break;
    }
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' && !open) {
      event.preventDefault();
      setOpen(true);
    }
  };

  return (
    <div ref={wrapRef} className="ui-menu-wrap">
      <button
        ref={buttonRef}
        type="button"
        id={`${id}-button`}
        className={buttonClass({ variant: 'ghost', ...look, iconOnly: !trigger })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={label}
        title={trigger ? undefined : label}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        {trigger ?? (Icon ? <Icon className="ui-icon" aria-hidden="true" /> : label)}
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={`${id}-menu`}
          role="menu"
          aria-label={label}
          className="ui-menu"
          data-align={align}
          data-above={above || undefined}
          onKeyDown={onMenuKeyDown}
        >
          {header ? <div className="ui-menu-header">{header}</div> : null}
          {entries.map((entry, index) =>
            entry === 'separator' ? (
              <div key={`separator-${index}`} role="separator" className="ui-menu-separator" />
            ) : (
              <button
                key={entry.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={entry.danger ? 'ui-menu-item ui-menu-item-danger' : 'ui-menu-item'}
                aria-disabled={entry.disabled || undefined}
                aria-label={entry.accessibleLabel}
                data-hint={entry.hint ? true : undefined}
                onClick={() => {
                  if (entry.disabled) return;
                  close(true);
                  entry.onSelect();
                }}
              >
                {entry.icon ? <entry.icon className="ui-icon" aria-hidden="true" /> : null}
                {entry.hint ? (
                  <span className="ui-menu-item-text">
                    <span>{entry.label}</span>
                    <span className="ui-menu-item-hint">{entry.hint}</span>
                  </span>
                ) : (
                  <span>{entry.label}</span>
                )}
                {entry.mark ? (
                  <entry.mark className="ui-icon ui-menu-item-mark" aria-hidden="true" />
                ) : null}
              </button>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
