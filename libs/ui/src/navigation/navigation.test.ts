import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ExternalNavigationRefused,
  createNavigator,
  createNoteOpener,
  takeCurrentNote,
} from './navigation';

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const setUp = () => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const navigateInApp = vi.fn();
  const win = {
    location: { origin: 'https://noted.example', assign: vi.fn(), replace: vi.fn() },
    open: vi.fn(),
  } as unknown as Pick<Window, 'location' | 'open'>;
  return { navigateInApp, win, navigate: createNavigator({ navigateInApp, window: win }) };
};

describe('navigation', () => {
  it('goes to app paths through the router', () => {
    const { navigate, navigateInApp } = setUp();
    navigate('/notes/1?x=1#top');
    navigate('https://noted.example/todos', { replace: true });
    expect(navigateInApp.mock.calls).toEqual([
      ['/notes/1?x=1#top', { replace: false }],
      ['/todos', { replace: true }],
    ]);
  });

  it('refuses an external address unless it is allowed', () => {
    const { navigate, win } = setUp();
    expect(() => navigate('https://evil.example/')).toThrow(ExternalNavigationRefused);
    expect(() => navigate('//evil.example/x')).toThrow(ExternalNavigationRefused);
    expect(win.location.assign).not.toHaveBeenCalled();
    navigate('https://billing.example/checkout', { allowExternal: true });
    expect(win.location.assign).toHaveBeenCalledWith('https://billing.example/checkout');
  });

  it('never follows a script address, allowed or not', () => {
    const { navigate, win } = setUp();
    expect(() => navigate('javascript:alert(1)', { allowExternal: true })).toThrow(
      ExternalNavigationRefused,
    );
    expect(win.location.assign).not.toHaveBeenCalled();
  });

  it('opens a note in this tab with the note handed over, or in a new tab', () => {
    const { navigate, navigateInApp, win } = setUp();
    const openNote = createNoteOpener(navigate);
    openNote('n1', { note: { title: 'Handed over' } });
    expect(navigateInApp).toHaveBeenCalledWith('/notes/n1', { replace: false });
    expect(takeCurrentNote('other')).toBeUndefined();
    openNote('n1', { note: { title: 'Handed over' } });
    expect(takeCurrentNote('n1')).toEqual({ title: 'Handed over' });
    expect(takeCurrentNote('n1')).toBeUndefined();
    openNote('n2', { newTab: true });
    expect(win.open).toHaveBeenCalledWith(
      'https://noted.example/notes/n2',
      '_blank',
      'noopener,noreferrer',
    );
  });
});
