import { useState } from 'react';

/**
 * A value kept in the address, shown as asked for at once. react-router commits address
 * changes in a transition, so a control bound to the address alone would show its old value
 * until then (a ticked box unticking for a moment); this follows the address when it changes.
 */
export const useAddressed = <T>(addressed: T): [T, (value: T) => void] => {
  const [shown, setShown] = useState(addressed);
  const [followed, setFollowed] = useState(addressed);
  if (!Object.is(addressed, followed)) {
    setFollowed(addressed);
    setShown(addressed);
  }
  return [shown, setShown];
};
