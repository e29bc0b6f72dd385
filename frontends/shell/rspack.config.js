// @ts-check
import { createRequire } from 'node:module';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';
import { rspack } from '@rspack/core';

const require = createRequire(import.meta.url);
const { dependencies } = require('./package.json');

export default defineConfig({
  mode: 'production',
  devtool: 'source-map',
  entry: { main: './src/index.ts' },
  output: {
    path: new URL('./dist', import.meta.url).pathname,
    publicPath: '/',
    uniqueName: 'shell',
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
      // The shell only needs createApiClient and AppError; this lets the zod schemas beside
      // them in @noted/api drop out of the bundle.
      { test: /[\\/]libs[\\/]api[\\/]src[\\/]/, sideEffects: false },
      { test: /\.css$/, type: 'css/auto' },
    ],
  },
  plugins: [
    new rspack.HtmlRspackPlugin({ template: './src/index.html', inject: 'body' }),
    new ModuleFederationPlugin({
      name: 'shell',
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
