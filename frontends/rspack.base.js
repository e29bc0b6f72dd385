// @ts-check
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { defineConfig } from '@rspack/cli';

/** The precompressed copies PrecompressPlugin writes, each sent in place of its original. */
const precompressed = /\.(br|gz)$/;

/**
 * Emits `assets.json`, the files of this build a browser may need (source maps and precompressed
 * copies left out): the shell's service worker precaches its own from it and warms its cache
 * with each remote's.
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
              (name) =>
                !name.endsWith('.map') &&
                !precompressed.test(name) &&
                !['assets.json', 'mf-stats.json'].includes(name),
            )
            .sort();
          compilation.emitAsset('assets.json', new sources.RawSource(JSON.stringify({ files })));
        },
      );
    });
  }
}

const compressible = /\.(js|mjs|css|html|json|svg|webmanifest|txt)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const compressions = [
  {
    extension: '.br',
    /** @param {Buffer} bytes */
    compress: (bytes) =>
      brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
  },
  {
    extension: '.gz',
    /** @param {Buffer} bytes */
    compress: (bytes) => gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
  },
];

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text asset
 * of 1 KiB or more, for the gateway to send to browsers that accept them; a copy that comes out
 * no smaller is left out. Runs last, after every plugin that writes or rewrites an asset (Module
 * Federation rewrites its manifest at OPTIMIZE_TRANSFER, AssetListPlugin writes at REPORT).
 */
export class PrecompressPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT + 1 },
        async () => {
          const copies = compilation
            .getAssets()
            .filter(({ name, source }) => compressible.test(name) && source.size() >= 1024)
            .flatMap(({ name, source }) => {
              const bytes = source.buffer();
              return compressions.map(async ({ extension, compress }) => {
                const copy = await compress(bytes);
                return copy.length < bytes.length ? { name: `${name}${extension}`, copy } : null;
              });
            });
          for (const made of await Promise.all(copies)) {
            if (made) compilation.emitAsset(made.name, new sources.RawSource(made.copy));
          }
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
 *   federation?: Record<string, unknown> | false;
 *   plugins?: import('@rspack/core').RspackPluginInstance[];
 *   outputDir?: string;
 * }} options
 *
 * `federation: false` builds a plain bundle instead (the marketing site's own entry, which runs
 * without the shell); `outputDir` puts it beside the remote, e.g. 'dist/site'.
 */
export const frontendConfig = ({
  name,
  packageUrl,
  entry,
  publicPath,
  federation = {},
  plugins = [],
  outputDir = 'dist',
}) => {
  const { dependencies } = createRequire(packageUrl)('./package.json');
  return defineConfig({
    mode: 'production',
    devtool: 'source-map',
    entry,
    output: {
      path: new URL(`./${outputDir}`, packageUrl).pathname,
      publicPath,
      uniqueName: name,
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      cssChunkFilename: '[name].[contenthash:8].css',
      assetModuleFilename: '[name].[contenthash:8][ext]',
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
      new PrecompressPlugin(),
      ...(federation === false
        ? []
        : [
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
          ]),
    ],
    performance: { hints: false },
  });
};
