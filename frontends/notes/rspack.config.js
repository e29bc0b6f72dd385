// @ts-check
import { createRequire } from 'node:module';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';

const require = createRequire(import.meta.url);
const { dependencies } = require('./package.json');

export default defineConfig({
  mode: 'production',
  devtool: 'source-map',
  // The container entry that ModuleFederationPlugin adds is the only entry of this remote.
  entry: {},
  output: {
    path: new URL('./dist', import.meta.url).pathname,
    // Resolved from remoteEntry.js at runtime, so the remote works under /remotes/notes/.
    publicPath: 'auto',
    uniqueName: 'notes',
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    cssFilename: '[name].[contenthash:8].css',
    cssChunkFilename: '[name].[contenthash:8].css',
    clean: true,
  },
  resolve: {
    extensions: ['.ts', '.tsx', '.js'],
    // libs/api imports its siblings as './x.js' (NodeNext style) while shipping .ts sources.
    extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    conditionNames: ['@noted/source', 'import', 'module', 'browser', 'default'],
  },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: {
          jsc: {
            target: 'es2022',
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
          },
        },
        type: 'javascript/auto',
      },
      { test: /[\\/]libs[\\/]api[\\/]src[\\/]/, sideEffects: false },
      { test: /\.css$/, type: 'css/auto' },
    ],
  },
  plugins: [
    new ModuleFederationPlugin({
      name: 'notes',
      filename: 'remoteEntry.js',
      exposes: { './NotesApp': './src/NotesApp.tsx' },
      manifest: true,
      dts: false,
      shared: {
        react: { singleton: true, requiredVersion: dependencies.react },
        'react-dom': { singleton: true, requiredVersion: dependencies['react-dom'] },
      },
    }),
  ],
  performance: { hints: false },
});
