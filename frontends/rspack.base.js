// @ts-check
import { createRequire } from 'node:module';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';

/**
 * Emits `assets.json`, the files of this build a browser may need (source maps left out): the
 * shell's service worker precaches its own from it and warms its cache with each remote's.
 */
class AssetListPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('AssetListPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'AssetListPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const files = compilation
            .getAssets()
            .map((asset) => asset.name)
            .filter(
              (name) => !name.endsWith('.map') && !['assets.json', 'mf-stats.json'].includes(name),
            )
            .sort();
          compilation.emitAsset('assets.json', new sources.RawSource(JSON.stringify({ files })));
        },
      );
    });
  }
}

/** One copy each for the whole page, whichever of the frontends that depend on them loads it. */
const singletons = ['react', 'react-dom', '@noted/router', 'i18next', 'react-i18next'];

/**
 * How every Noted frontend is built: TypeScript and JSX through swc, content-hashed files,
 * CSS, and Module Federation with react, react-dom, @noted/router (the part of react-router in
 * use), i18next and react-i18next as shared singletons (the router's and the translations'
 * contexts cross from the shell into the remotes; nothing else is shared, so each remote keeps
 * its own copies of everything it does not hand across).
 *
 * @param {{
 *   name: string;
 *   packageUrl: string;
 *   entry: Record<string, string>;
 *   publicPath: string;
 *   federation?: Record<string, unknown>;
 *   plugins?: import('@rspack/core').RspackPluginInstance[];
 * }} options
 */
export const frontendConfig = ({
  name,
  packageUrl,
  entry,
  publicPath,
  federation = {},
  plugins = [],
}) => {
  const { dependencies } = createRequire(packageUrl)('./package.json');
  return defineConfig({
    mode: 'production',
    devtool: 'source-map',
    entry,
    output: {
      path: new URL('./dist', packageUrl).pathname,
      publicPath,
      uniqueName: name,
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
        { test: /\.css$/, type: 'css/auto' },
      ],
    },
    plugins: [
      ...plugins,
      new AssetListPlugin(),
      new ModuleFederationPlugin({
        name,
        manifest: true,
        dts: false,
        shared: Object.fromEntries(
          singletons
            .filter((name) => dependencies[name])
            .map((name) => [name, { singleton: true, requiredVersion: dependencies[name] }]),
        ),
        ...federation,
      }),
    ],
    performance: { hints: false },
  });
};
