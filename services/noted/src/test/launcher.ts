import { readFileSync } from 'node:fs';

/**
 * The environment settings and node flags of the program's `#!/usr/bin/env -S ... node ...`
 * line, which `npm start` shares: it runs as the noted binary does (the build does not make
 * main.js executable).
 */
export const launcherOf = (main: string) => {
  const line = readFileSync(main, 'utf8').split('\n', 1)[0] ?? '';
  const words = line
    .replace(/^#!\S*env\s+(-S\s+)?/, '')
    .split(/\s+/)
    .filter(Boolean);
  const node = words.findIndex((word) => word === 'node' || word.endsWith('/node'));
  if (!line.startsWith('#!') || node < 0) throw new Error(`${main} has no #! line that runs node`);
  const settings = Object.fromEntries(
    words
      .slice(0, node)
      .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
  return { settings, flags: words.slice(node + 1) };
};
