import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => readFileSync(new URL(relative, import.meta.url), 'utf8');

describe('the noted program', () => {
  it('runs with the same malloc settings and node flags from npm start as from its binary', () => {
    const shebang = /^#!\/usr\/bin\/env -S (.*) node (.*)$/m.exec(read('./main.ts'));
    const { scripts } = JSON.parse(read('../../../package.json')) as {
      scripts: Record<string, string>;
    };
    const start = /&& ((?:(?!&&).)*) node (.*) services\/noted\/dist\/main\.js$/.exec(
      scripts.start ?? '',
    );
    expect(shebang?.slice(1)).toEqual(start?.slice(1));
    expect(shebang?.[2]).toContain('--max-old-space-size=');
  });
});
