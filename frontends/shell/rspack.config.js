// @ts-check
import { rspack } from '@rspack/core';
import { frontendConfig } from '../rspack.base.js';

export default frontendConfig({
  name: 'shell',
  packageUrl: import.meta.url,
  entry: { main: './src/index.ts' },
  publicPath: '/',
  plugins: [new rspack.HtmlRspackPlugin({ template: './src/index.html', inject: 'body' })],
});
