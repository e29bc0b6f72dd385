import { createApiClient } from '@noted/api';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { createAccountCheck } from './account';
import { createAuth, providerProbe } from './auth/auth';
import { loadConfig } from './config';
import { log } from './log';
import type { NotesAppProps, SharedNoteProps } from './remotes/contracts';
import { setUpFederation } from './remotes/federation';
import { createRemoteLoader } from './remotes/loader';
import { ShellRoutes } from './ShellRoutes';
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

  const loadSharedNote = createRemoteLoader<SharedNoteProps>(federation, {
    name: 'notes',
    entry: config.remotes.notes,
    expose: 'SharedNote',
  });

  // The session check starts with the first page that needs it: a shared note needs none.
  root.render(
    <BrowserRouter>
      <ShellRoutes
        auth={auth}
        api={api}
        checkAccount={createAccountCheck(api)}
        loadNotesApp={loadNotesApp}
        loadSharedNote={loadSharedNote}
      />
    </BrowserRouter>,
  );
};

start().catch((error: unknown) => {
  log.error('Noted could not start.', error);
  root.render(<StartupError error={error} />);
});
