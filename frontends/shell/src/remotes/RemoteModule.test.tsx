import { createTestI18n, createTestShell, TestShell } from '@noted/ui/testing';
import { cleanup, fireEvent, render as renderTree, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RemoteLoadError } from './fallbackPlugin';
import enShell from '../messages/en/shell.json';
import { RemoteModule } from './RemoteModule';

const render = (tree: ReactElement) =>
  renderTree(
    <TestShell shell={createTestShell(createTestI18n({ shell: enShell }))}>{tree}</TestShell>,
  );

interface GreetingProps {
  person: string;
}

const Greeting = ({ person }: GreetingProps) => <p>Hello {person}</p>;

beforeEach(() => {
  // React and the boundary report caught failures on the console; the assertions are on the page.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('RemoteModule', () => {
  it('renders the loaded module with the given props', async () => {
    const load = vi.fn(async () => ({ default: Greeting }));
    render(<RemoteModule load={load} props={{ person: 'Ada' }} name="notes" />);

    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the fallback when loading fails and loads again on Retry', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(new RemoteLoadError('notes/NotesApp', new Error('manifest 503')))
      .mockResolvedValueOnce({ default: Greeting });
    render(
      <div>
        <header>
          <button type="button">Sign out</button>
        </header>
        <RemoteModule load={load} props={{ person: 'Ada' }} name="notes" />
      </div>,
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The notes module could not be loaded.');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('contains a module that crashes while rendering', async () => {
    const Broken = (_: GreetingProps): never => {
      throw new Error('render failed');
    };
    const load = vi.fn(async () => ({ default: Broken }));
    render(<RemoteModule load={load} props={{ person: 'Ada' }} name="notes" />);

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The notes module could not be loaded.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
