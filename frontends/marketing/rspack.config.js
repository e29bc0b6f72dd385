// @ts-check
import { frontendConfig } from '../rspack.base.js';

/**
 * Two builds: the remote the shell loads (the site's pages inside the app, and the feedback
 * page), and `site.js`, which hydrates a prerendered page on its own, without the shell.
 * `scripts/build-site.ts` then writes the content files and the prerendered documents.
 */
export default [
  frontendConfig({
    name: 'marketing',
    packageUrl: import.meta.url,
    entry: {},
    // Resolved from remoteEntry.js at runtime, so the remote works under /remotes/marketing/.
    publicPath: 'auto',
    outputDir: 'dist/remote',
    federation: {
      filename: 'remoteEntry.js',
      exposes: {
        './MarketingApp': './src/MarketingApp.tsx',
        './FeedbackPage': './src/feedback/FeedbackPage.tsx',
      },
    },
  }),
  {
    ...frontendConfig({
      name: 'site',
      packageUrl: import.meta.url,
      entry: { site: './src/site.tsx' },
      publicPath: '/site/',
      outputDir: 'dist/site',
      federation: false,
    }),
    // One script and one stylesheet: the stylesheet is inlined into every document.
    optimization: { splitChunks: false },
  },
];
