import { createApiClient } from '@noted/api';
import { createRoot } from 'react-dom/client';
import { createAccountCheck } from './account';
import { App } from './App';
import { createAuth, providerProbe } from './auth/auth';
import { loadConfig } from './config';
import { log } from './log';
import type { NotesAppProps, SharedNoteProps } from './remotes/contracts';
import { setUpFederation } from './remotes/federation';
import { createRemoteLoader } from './remotes/loader';
import { SharedPage, sharedNoteId } from './SharedPage';
import { StartupError } from './StartupError';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// Boundaries log what they catch, with their own context; React's default would log it twice.
const root = createRoot(container, { onCaughtError: () => undefined });

const start = async () => {
  const config = await loadConfig();
  const federation = setUpFederation();
  const auth = createAuth({
    createKeycloak: async () => {
      const { default: Keycloak } = await import('keycloak-js');
      return new Keycloak(config.keycloak);
    },
    isProviderReachable: providerProbe(config.keycloak),
  });
  const api = createApiClient({
    baseUrl: config.apiBaseUrl,
    getToken: auth.getToken,
    refresh: auth.refresh,
    timeoutMs: 30_000,
  });
  const loadNotesApp = createRemoteLoader<NotesAppProps>(federation, {
    name: 'notes',
    entry: config.remotes.notes,
    expose: 'NotesApp',
  });

  const publicId = sharedNoteId(window.location.pathname);
  if (publicId) {
    const loadSharedNote = createRemoteLoader<SharedNoteProps>(federation, {
      name: 'notes',
      entry: config.remotes.notes,
      expose: 'SharedNote',
    });
    root.render(<SharedPage api={api} publicId={publicId} loadSharedNote={loadSharedNote} />);
    return;
  }

  root.render(
    <App
      auth={auth}
      api={api}
      checkAccount={createAccountCheck(api)}
      loadNotesApp={loadNotesApp}
    />,
  );
  await auth.start();
};

start().catch((error: unknown) => {
  log.error('Noted could not start.', error);
  root.render(<StartupError error={error} />);
});
