import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToaster } from './toaster';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the toaster', () => {
  it('shows an error for 3000 ms by default, then hides it', () => {
    const toaster = createToaster();
    toaster.show('Saving failed');
    expect(toaster.current()).toMatchObject({
      message: 'Saving failed',
      type: 'error',
      duration: 3000,
    });
    vi.advanceTimersByTime(2999);
    expect(toaster.current()).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(toaster.current()).toBeUndefined();
  });

  it('hides the visible toast and shows the new one 100 ms later', () => {
    const toaster = createToaster();
    const seen: (string | undefined)[] = [];
    toaster.subscribe(() => seen.push(toaster.current()?.message));
    toaster.show('first', { type: 'info' });
    vi.advanceTimersByTime(500);
    toaster.show('second', { type: 'success' });
    expect(toaster.current()).toBeUndefined();
    vi.advanceTimersByTime(99);
    expect(toaster.current()).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(toaster.current()).toMatchObject({ message: 'second', type: 'success' });
    expect(seen).toEqual(['first', undefined, 'second']);
  });

  it('shows only the last of several toasts asked for during the gap', () => {
    const toaster = createToaster();
    toaster.show('one');
    toaster.show('two');
    vi.advanceTimersByTime(50);
    toaster.show('three');
    vi.advanceTimersByTime(100);
    expect(toaster.current()?.message).toBe('three');
    vi.advanceTimersByTime(10_000);
    expect(toaster.current()).toBeUndefined();
  });

  it('keeps a toast of duration 0 until it is closed', () => {
    const toaster = createToaster();
    toaster.show('Stays', { type: 'warning', duration: 0 });
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(toaster.current()?.message).toBe('Stays');
    toaster.hide();
    expect(toaster.current()).toBeUndefined();
  });

  it('refuses a type other than error, success, warning and info', () => {
    const toaster = createToaster();
    expect(() => toaster.show('x', { type: 'debug' as never })).toThrow(TypeError);
    expect(() => toaster.show('x', { duration: -1 })).toThrow(RangeError);
    expect(toaster.current()).toBeUndefined();
  });

  it('an old toast timer never hides its replacement early', () => {
    const toaster = createToaster();
    toaster.show('first', { duration: 1000 });
    vi.advanceTimersByTime(900);
    toaster.show('second', { duration: 1000 });
    vi.advanceTimersByTime(100 + 500);
    expect(toaster.current()?.message).toBe('second');
    vi.advanceTimersByTime(500);
    expect(toaster.current()).toBeUndefined();
  });
});
