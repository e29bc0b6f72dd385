// @ts-check
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { rspack } from '@rspack/core';
import sharp from 'sharp';
import { frontendConfig } from '../rspack.base.js';

/** Names this build; `build.json` carries it so a running page can tell a newer one is out. */
const buildId = randomUUID();

const pngIcons = [
  { name: 'icon-192.png', source: 'public/icon.svg', size: 192 },
  { name: 'icon-512.png', source: 'public/icon.svg', size: 512 },
  { name: 'icon-maskable-512.png', source: 'public/icon-maskable.svg', size: 512 },
  { name: 'apple-touch-icon.png', source: 'public/icon-maskable.svg', size: 180 },
];

/** The PNG icons the web app manifest and iOS need, rendered from the SVG sources. */
class IconsPlugin {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('IconsPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'IconsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          for (const { name, source, size } of pngIcons) {
            const svg = await readFile(new URL(source, import.meta.url));
            const png = await sharp(svg, { density: 300 }).resize(size, size).png().toBuffer();
            compilation.emitAsset(name, new sources.RawSource(png));
          }
          compilation.emitAsset('build.json', new sources.RawSource(JSON.stringify({ buildId })));
        },
      );
    });
  }
}

export default frontendConfig({
  name: 'shell',
  packageUrl: import.meta.url,
  entry: { main: './src/index.ts' },
  publicPath: '/',
  plugins: [
    new rspack.HtmlRspackPlugin({ template: './src/index.html', inject: 'body' }),
    new rspack.CopyRspackPlugin({
      patterns: [{ from: 'public', globOptions: { ignore: ['**/icon-maskable.svg'] } }],
    }),
    new rspack.DefinePlugin({ __NOTED_BUILD_ID__: JSON.stringify(buildId) }),
    new IconsPlugin(),
  ],
});
