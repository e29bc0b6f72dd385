import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Highlighted, decodeEntities, highlightParts } from './Highlighted';

afterEach(cleanup);

describe('highlightParts', () => {
  it('splits on <mark> and decodes the escaped text', () => {
    expect(highlightParts('a &lt;b&gt; <mark>milk</mark> &amp; <mark>eggs</mark>!')).toEqual([
      { text: 'a <b> ', marked: false },
      { text: 'milk', marked: true },
      { text: ' & ', marked: false },
      { text: 'eggs', marked: true },
      { text: '!', marked: false },
    ]);
  });

  it('keeps any other tag as text', () => {
    expect(highlightParts('<img src=x onerror=alert(1)><mark>x</mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'x', marked: true },
    ]);
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric references and leaves unknown ones', () => {
    expect(decodeEntities('&quot;&#39;&#x41;&#66;&apos; &nbsp; &bogus; &#0; &amp;lt;')).toBe(
      `"'AB' &nbsp; &bogus; &#0; &lt;`,
    );
  });
});

describe('Highlighted', () => {
  it('renders the matches in <mark> and markup as text', () => {
    const { container } = render(
      <p>
        <Highlighted html="&lt;script&gt;alert(1)&lt;/script&gt; <mark>note</mark>" />
      </p>,
    );
    expect(container.textContent).toBe('<script>alert(1)</script> note');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('mark')?.textContent).toBe('note');
  });
});
