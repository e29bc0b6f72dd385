import { describe, expect, it } from 'vitest';
import { liveLink } from './link.js';

describe('liveLink', () => {
  it('keeps http, https and mailto, in the form the URL parser gives', () => {
    expect(liveLink('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(liveLink('HTTP://Example.COM')).toBe('http://example.com/');
    expect(liveLink('  https://example.com/padded  ')).toBe('https://example.com/padded');
    expect(liveLink('ht\ttps://exa\nmple.com/')).toBe('https://example.com/');
    expect(liveLink('mailto:ann@example.com?subject=Hi')).toBe('mailto:ann@example.com?subject=Hi');
    expect(liveLink('https://例え.jp/パス')).toBe('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9');
    // A link Noted makes to a note's page, under PUBLIC_URL.
    expect(liveLink('http://localhost:8080/notes/6f1c2f9e')).toBe(
      'http://localhost:8080/notes/6f1c2f9e',
    );
  });

  it('refuses every other scheme, however it is written', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'java\rscript:alert(1)',
      '\u0000javascript:alert(1)',
      '\u0001\u001f javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'vbscript:msgbox(1)',
      'VBScript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      ' DATA:text/html,<script>',
      'file:///etc/passwd',
      'ftp://example.com/file',
      'blob:https://example.com/1',
      'about:blank',
      'tel:+123',
      'intent://scan#Intent;scheme=zxing;end',
    ]) {
      expect(liveLink(url), JSON.stringify(url)).toBeUndefined();
    }
  });

  it('refuses what is relative to nothing, or no address at all', () => {
    for (const url of [
      '',
      '/notes/abc',
      'page.html',
      '#top',
      '?q=1',
      '//example.com/no-scheme',
      'http://',
      '\u00a0https://example.com/',
      'https://exa mple.com/',
    ]) {
      expect(liveLink(url), JSON.stringify(url)).toBeUndefined();
    }
  });
});
