// @ts-check
import { frontendConfig } from '../rspack.base.js';

export default frontendConfig({
  name: 'notes',
  packageUrl: import.meta.url,
  // The container entry that ModuleFederationPlugin adds is the only entry of this remote.
  entry: {},
  // Resolved from remoteEntry.js at runtime, so the remote works under /remotes/notes/.
  publicPath: 'auto',
  federation: {
    filename: 'remoteEntry.js',
    exposes: {
      './NotesApp': './src/NotesApp.tsx',
      './SharedNote': './src/SharedNote.tsx',
      './DataPanel': './src/data/DataPanel.tsx',
    },
  },
});
