import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAddressed } from './useAddressed';

describe('a value kept in the address', () => {
  it('shows what was asked for at once, and follows the address when it changes', () => {
    const { result, rerender } = renderHook(({ addressed }) => useAddressed(addressed), {
      initialProps: { addressed: false },
    });
    act(() => result.current[1](true));
    // The address has not caught up yet: the asked-for value shows meanwhile.
    expect(result.current[0]).toBe(true);
    rerender({ addressed: true });
    expect(result.current[0]).toBe(true);
    // Back in history: the address changes on its own, and the control follows it.
    rerender({ addressed: false });
    expect(result.current[0]).toBe(false);
  });
});
