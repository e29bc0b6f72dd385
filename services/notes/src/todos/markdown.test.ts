import { describe, expect, it } from 'vitest';
import { parseTasks, setTaskState } from './markdown.js';

const summary = (body: string) =>
  parseTasks(body).map(({ index, line, text, done }) => ({ index, line, text, done }));

describe('parseTasks', () => {
  it('finds bullet and ordered task items with their state, line and text', () => {
    const body = [
      '# Groceries',
      '- [ ] milk',
      '* [x] bread',
      '+ [X] eggs',
      '1. [ ] call the bank',
      '2) [x] pay rent  ',
      'plain text [ ] not a todo',
    ].join('\n');
    expect(summary(body)).toEqual([
      { index: 0, line: 1, text: 'milk', done: false },
      { index: 1, line: 2, text: 'bread', done: true },
      { index: 2, line: 3, text: 'eggs', done: true },
      { index: 3, line: 4, text: 'call the bank', done: false },
      { index: 4, line: 5, text: 'pay rent', done: true },
    ]);
  });

  it('finds nested items in document order', () => {
    const body = ['- [ ] trip', '  - [x] tickets', '    1. [ ] seat', '\t- [ ] visa'].join('\n');
    expect(summary(body).map((t) => [t.line, t.text, t.done])).toEqual([
      [0, 'trip', false],
      [1, 'tickets', true],
      [2, 'seat', false],
      [3, 'visa', false],
    ]);
  });

  it('is not fooled by things that only look like checkboxes', () => {
    const body = [
      '-[ ] no space after the marker',
      '- [ ]no space after the box',
      '- [ ]',
      '- [y] not a state',
      '- [  ] two spaces',
      '[ ] no marker',
      '- plain item with [ ] inside',
      '- `[ ]` in inline code',
      'Write `- [ ] item` to make a todo',
      '10000000000. [ ] too long a number',
    ].join('\n');
    expect(parseTasks(body)).toEqual([]);
  });

  it('ignores checkboxes inside fenced code blocks of either kind', () => {
    const body = [
      '- [ ] before',
      '```md',
      '- [ ] in backticks',
      '```',
      '~~~',
      '- [x] in tildes',
      '```',
      '- [x] still in tildes: a backtick fence does not close it',
      '~~~',
      '  - ```js',
      '    - [ ] in a fence opened inside a list item',
      '    ```',
      '- [x] after',
    ].join('\n');
    expect(summary(body)).toEqual([
      { index: 0, line: 0, text: 'before', done: false },
      { index: 1, line: 12, text: 'after', done: true },
    ]);
  });

  it('needs a closing fence at least as long as the opening one', () => {
    const body = ['````', '```', '- [ ] inside', '````', '- [ ] outside'].join('\n');
    expect(summary(body).map((t) => t.text)).toEqual(['outside']);
  });

  it('treats an unclosed fence as running to the end', () => {
    expect(parseTasks('- [ ] a\n```\n- [ ] b\n- [ ] c')).toHaveLength(1);
  });

  it('does not take a backtick line with a backtick in its info string for a fence', () => {
    expect(summary('``` a ` b\n- [ ] real').map((t) => t.text)).toEqual(['real']);
  });

  it('handles CRLF line endings', () => {
    const body = '- [ ] one\r\n- [x] two\r\n';
    expect(summary(body)).toEqual([
      { index: 0, line: 0, text: 'one', done: false },
      { index: 1, line: 1, text: 'two', done: true },
    ]);
    const [, second] = parseTasks(body);
    expect(second && body.charAt(second.offset)).toBe('x');
  });
});

describe('setTaskState', () => {
  const body = '# List\r\n- [ ] one\n  * [X] two\n```\n- [ ] code\n```\n3. [ ] three';

  it('changes only the state character of that checkbox', () => {
    const [one, two, three] = parseTasks(body);
    if (!one || !two || !three) throw new Error('expected three tasks');
    const checked = setTaskState(body, three, true);
    expect(checked).toBe(body.replace('3. [ ] three', '3. [x] three'));
    expect(checked.length).toBe(body.length);
    expect(setTaskState(body, two, false)).toBe(body.replace('[X] two', '[ ] two'));
    expect(parseTasks(setTaskState(body, one, true)).map((t) => t.done)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('leaves a checkbox already in that state as it is', () => {
    const [, two] = parseTasks(body);
    if (!two) throw new Error('expected a task');
    expect(setTaskState(body, two, true)).toBe(body);
  });
});
