import { describe, expect, it } from 'vitest';
import { contentDisposition, safeBaseName, uniqueNames } from './files.js';

describe('safe file names', () => {
  it('replaces what Windows, macOS or Linux refuse in a name', () => {
    expect(safeBaseName('Plans: 2026/05 <draft> "v2" | a*b? c\\d')).toBe(
      'Plans- 2026-05 -draft- -v2- - a-b- c-d',
    );
    expect(safeBaseName('tab\there\nnew line\u0000nul')).toBe('tab here new line-nul');
  });

  it('keeps Chinese, accents and emoji as they are, composed (NFC)', () => {
    expect(safeBaseName('导出设计：PDF 与图片')).toBe('导出设计：PDF 与图片');
    expect(safeBaseName('Cafe\u0301 ☕️')).toBe('Café ☕️');
  });

  it('never gives a Windows device name, with or without an extension, in any case', () => {
    expect(safeBaseName('CON')).toBe('CON_');
    expect(safeBaseName('nul')).toBe('nul_');
    expect(safeBaseName('Com1.backup')).toBe('Com1.backup_');
    expect(safeBaseName('lpt9')).toBe('lpt9_');
    expect(safeBaseName('Console')).toBe('Console');
  });

  it('drops leading dots, trailing dots and spaces, and invisible direction marks', () => {
    expect(safeBaseName('..hidden')).toBe('hidden');
    expect(safeBaseName('  Ends with dots... ')).toBe('Ends with dots');
    expect(safeBaseName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('names an empty or unusable title Untitled', () => {
    expect(safeBaseName('')).toBe('Untitled');
    expect(safeBaseName(' . . ')).toBe('Untitled');
  });

  it('cuts a long title to 120 bytes of UTF-8 without splitting a character', () => {
    const chinese = safeBaseName('笔'.repeat(100));
    expect(Buffer.byteLength(chinese)).toBe(120);
    expect(chinese).toBe('笔'.repeat(40));
    const emoji = safeBaseName('👍🏽'.repeat(30));
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(120);
    expect(emoji).toBe('👍🏽'.repeat(Math.floor(120 / Buffer.byteLength('👍🏽'))));
  });

  it('numbers a name already given in the folder, whatever its case', () => {
    const name = uniqueNames();
    expect(name('Note', '.md')).toBe('Note.md');
    expect(name('Note', '.md')).toBe('Note (2).md');
    expect(name('note', '.md')).toBe('note (3).md');
    expect(name('Note (2)', '.md')).toBe('Note (2) (2).md');
    expect(name('Note', '.txt')).toBe('Note.txt');
  });
});

describe('Content-Disposition', () => {
  it('names the file in UTF-8 (RFC 5987) with an ASCII stand-in for old clients', () => {
    expect(contentDisposition('导出设计 (草稿).md')).toBe(
      `attachment; filename="____ (__).md"; filename*=UTF-8''%E5%AF%BC%E5%87%BA%E8%AE%BE%E8%AE%A1%20%28%E8%8D%89%E7%A8%BF%29.md`,
    );
    expect(contentDisposition('Café "quoted".md')).toBe(
      `attachment; filename="Cafe _quoted_.md"; filename*=UTF-8''Caf%C3%A9%20%22quoted%22.md`,
    );
  });
});
