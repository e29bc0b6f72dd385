import { ModuleFederation } from '@module-federation/enhanced/runtime';
import { describe, expect, it, vi } from 'vitest';
import { RemoteLoadError, createRemoteFallback, remoteFallbackPlugin } from './fallbackPlugin';
import { createRemoteLoader } from './loader';

const notesModule = { default: () => null };

const fakeFederation = (...results: unknown[]) => {
  const registerRemotes = vi.fn();
  const loadRemote = vi.fn(async () => {
    const next = results.shift();
    if (next instanceof Error) throw next;
    return next;
  });
  return { federation: { registerRemotes, loadRemote }, registerRemotes, loadRemote };
};

const target = { name: 'notes', entry: '/remotes/notes/mf-manifest.json', expose: 'NotesApp' };

describe('createRemoteLoader', () => {
  it('registers the remote from config and loads the exposed module', async () => {
    const { federation, registerRemotes, loadRemote } = fakeFederation(notesModule);
    const load = createRemoteLoader(federation, target);

    await expect(load()).resolves.toBe(notesModule);
    expect(registerRemotes).toHaveBeenCalledWith(
      [{ name: 'notes', entry: '/remotes/notes/mf-manifest.json' }],
      { force: false },
    );
    expect(loadRemote).toHaveBeenCalledWith('notes/NotesApp');
  });

  it('retries once, re-registering so the manifest is fetched again', async () => {
    const fallback = createRemoteFallback('notes/NotesApp', new Error('503'));
    const { federation, registerRemotes } = fakeFederation(fallback, notesModule);
    const load = createRemoteLoader(federation, target, { retryDelayMs: 0 });

    await expect(load()).resolves.toBe(notesModule);
    expect(registerRemotes.mock.calls.map(([, options]) => options)).toEqual([
      { force: false },
      { force: true },
    ]);
  });

  it('rejects with RemoteLoadError when every attempt fails, and a later call starts afresh', async () => {
    const { federation, registerRemotes } = fakeFederation(
      createRemoteFallback('notes/NotesApp', new Error('503')),
      new Error('network down'),
      notesModule,
    );
    const load = createRemoteLoader(federation, target, { retries: 1, retryDelayMs: 0 });

    await expect(load()).rejects.toBeInstanceOf(RemoteLoadError);
    await expect(load()).resolves.toBe(notesModule);
    expect(registerRemotes).toHaveBeenLastCalledWith(expect.anything(), { force: true });
  });

  it('rejects without loading when config.json names no address', async () => {
    const { federation, loadRemote } = fakeFederation(notesModule);
    const load = createRemoteLoader(federation, { ...target, entry: undefined });

    await expect(load()).rejects.toThrow('notes/NotesApp could not be loaded');
    expect(loadRemote).not.toHaveBeenCalled();
  });
});

describe('remoteFallbackPlugin', () => {
  const host = new ModuleFederation({ name: 'shell-test', remotes: [] });

  it('logs the final failure and answers with a fallback module', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const plugin = remoteFallbackPlugin();
    const error = new Error('manifest 404');

    const answer = await plugin.errorLoadRemote?.({
      id: 'notes/NotesApp',
      error,
      from: 'runtime',
      lifecycle: 'onLoad',
      origin: host,
    });

    expect(answer).toMatchObject({
      remoteUnavailable: { remoteId: 'notes/NotesApp', reason: error },
    });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('notes/NotesApp'), error);
    logged.mockRestore();
  });

  it('leaves earlier stages alone, where an answer would be taken for a manifest', async () => {
    const plugin = remoteFallbackPlugin();
    const answer = await plugin.errorLoadRemote?.({
      id: '/remotes/notes/mf-manifest.json',
      error: new Error('503'),
      from: 'runtime',
      lifecycle: 'afterResolve',
      origin: host,
    });
    expect(answer).toBeUndefined();
  });
});
