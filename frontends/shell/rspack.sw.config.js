// @ts-check
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rspack } from '@rspack/core';
import { defineConfig } from '@rspack/cli';
import { PrecompressPlugin } from '../rspack.base.js';

const dist = new URL('./dist/', import.meta.url);

/** Content-hashed names carry their version; other files get the hash of their bytes. */
const hashedName = /\.[0-9a-f]{8}\.(js|css)$/;
/** Fetched fresh on every check, never from the precache. */
const notPrecached = new Set(['build.json', 'assets.json', 'silent-check-sso.html']);

/**
 * The precache list of the shell, from the `assets.json` its own build (run first) wrote:
 * Workbox's `{ url, revision }` entries.
 */
const precacheManifest = () => {
  const { files } = JSON.parse(readFileSync(new URL('assets.json', dist), 'utf8'));
  return /** @type {string[]} */ (files)
    .filter((file) => !notPrecached.has(file))
    .map((file) => ({
      url: `/${file}`,
      revision: hashedName.test(file)
        ? null
        : createHash('sha256')
            .update(readFileSync(new URL(file, dist)))
            .digest('hex')
            .slice(0, 16),
    }));
};

/** The service worker, built after the app into the same folder, at the site root. */
export default defineConfig({
  mode: 'production',
  target: 'webworker',
  devtool: false,
  entry: { sw: './sw/sw.ts' },
  output: { path: dist.pathname, filename: '[name].js', clean: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        options: { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } },
        type: 'javascript/auto',
      },
    ],
  },
  plugins: [
    new rspack.DefinePlugin({ 'self.__WB_MANIFEST': JSON.stringify(precacheManifest()) }),
    new PrecompressPlugin(),
  ],
  performance: { hints: false },
});
