import type { ReactNode } from 'react';
import { useAddressed } from './useAddressed';

export interface AddressedSwitchProps {
  /** The value in the address. */
  on: boolean;
  /** Puts the new value in the address. */
  onChange: (on: boolean) => void;
  className?: string;
  children: ReactNode;
}

/** A switch bound to a flag of the address, showing a change at once (see useAddressed). */
export function AddressedSwitch({ on, onChange, className, children }: AddressedSwitchProps) {
  const [shown, show] = useAddressed(on);
  return (
    <label className={className ? `ui-switch ${className}` : 'ui-switch'}>
      <input
        type="checkbox"
        checked={shown}
        onChange={(event) => {
          show(event.target.checked);
          onChange(event.target.checked);
        }}
      />
      {children}
    </label>
  );
}
