import { describe, expect, it } from 'vitest';
import { toggleTask, wikiParts } from './markdown';

describe('wikiParts', () => {
  it('finds [[Title]] and [[Title|label]] as the notes service does', () => {
    expect(
      wikiParts('See [[ Groceries ]] and [[Trip plan|the trip]], not [[]] or [[a\nb]].'),
    ).toEqual([
      { text: 'See ' },
      { title: 'Groceries', label: 'Groceries' },
      { text: ' and ' },
      { title: 'Trip plan', label: 'the trip' },
      { text: ', not [[]] or [[a\nb]].' },
    ]);
  });
});

describe('toggleTask', () => {
  const body = ['# List', '- [ ] milk', '  * [x] eggs', '> 1. [ ] quoted', 'not [ ] a task'].join(
    '\n',
  );

  it('ticks and unticks the task on the given line only', () => {
    expect(toggleTask(body, 2).split('\n')[1]).toBe('- [x] milk');
    expect(toggleTask(body, 3).split('\n')[2]).toBe('  * [ ] eggs');
    expect(toggleTask(body, 4).split('\n')[3]).toBe('> 1. [x] quoted');
    expect(toggleTask(toggleTask(body, 2), 2)).toBe(body);
  });

  it('leaves the body alone when the line is not a task', () => {
    expect(toggleTask(body, 1)).toBe(body);
    expect(toggleTask(body, 5)).toBe(body);
    expect(toggleTask(body, 99)).toBe(body);
  });
});
