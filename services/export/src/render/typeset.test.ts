import { beforeAll, describe, expect, it } from 'vitest';
import { loadFontData, openFonts } from './fonts.js';
import { Typesetter, type Line, type TextStyle } from './typeset.js';

let ts: Typesetter;
beforeAll(async () => {
  ts = new Typesetter(openFonts(await loadFontData()));
});

const body: TextStyle = { face: 'sans', size: 10, color: '#000' };
const lineText = (line: Line) => line.pieces.map((piece) => piece.text).join('');

describe('Typesetter', () => {
  it('breaks Chinese between characters, never before closing or after opening punctuation', () => {
    const text =
      '今天我们讨论了笔记导出的设计。用户希望能把自己的笔记完整地带走：PDF 用来打印和归档，图片用来分享到社交网络（以及其他地方）。';
    const lines = ts.layout([{ text, style: body }], 95);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line.width).toBeLessThanOrEqual(95.01);
      expect(lineText(line)).not.toMatch(/^[，。：）、]/);
      expect(lineText(line)).not.toMatch(/（$/);
    }
    expect(lines.map(lineText).join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
  });

  it('breaks English at spaces and mixes it with Chinese on one line', () => {
    const text = 'Export the note 导出笔记 as a PDF document for printing';
    const lines = ts.layout([{ text, style: body }], 120);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(120.01);
    for (const word of text.match(/[A-Za-z]+/g) ?? []) {
      expect(
        lines.some((line) =>
          lineText(line)
            .split(/[ \u4e00-\u9fff]/)
            .includes(word),
        ),
      ).toBe(true);
    }
  });

  it('cuts a word longer than the line rather than letting it overflow', () => {
    const url = 'https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all';
    const lines = ts.layout([{ text: url, style: body }], 60);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(60.01);
    expect(lines.map(lineText).join('')).toBe(url);
  });

  it('sets Chinese in code in Noto Sans SC and emoji in the emoji font', () => {
    const code: TextStyle = { ...body, face: 'mono' };
    const [line] = ts.layout([{ text: 'x = 1 // 注释 👍', style: code }], 500);
    const fonts = line?.pieces.map((piece) => [piece.text.trim(), piece.font]);
    expect(fonts).toEqual([
      ['x = 1 //', 'mono'],
      ['注释', 'sans'],
      ['', 'mono'],
      ['👍', 'emoji'],
    ]);
  });

  it('sets Latin letters Noto Sans SC lacks (Polish, Czech, Turkish) in Noto Sans', () => {
    const [line] = ts.layout([{ text: 'Łódź, Dvořák, İstanbul', style: body }], 500);
    const latin = line?.pieces.filter((piece) => piece.font === 'latin').map((piece) => piece.text);
    expect(latin).toEqual(['Ł', 'ź', 'ř', 'İ']);
    const [bold] = ts.layout([{ text: 'Łódź', style: { ...body, face: 'bold' } }], 500);
    expect(bold?.pieces.map((piece) => piece.font)).toEqual(['latinBold', 'bold', 'latinBold']);
  });

  it('keeps a hard line break and drops the spaces a line ends with', () => {
    const lines = ts.layout([{ text: 'first line   \nsecond', style: body }], 500);
    expect(lines.map(lineText)).toEqual(['first line', 'second']);
  });

  it('pads a chip (inline code) so that its background does not touch the text around it', () => {
    const chip: TextStyle = { ...body, face: 'mono', background: '#eee', pad: 3 };
    const [line] = ts.layout(
      [
        { text: 'a ', style: body },
        { text: 'code', style: chip },
        { text: ' b', style: body },
      ],
      500,
    );
    const code = line?.pieces.find((piece) => piece.style === chip);
    expect(code?.padStart).toBe(3);
    expect(code?.padEnd).toBe(3);
    const after = line?.pieces[line.pieces.indexOf(code!) + 1];
    expect(after!.x).toBeGreaterThanOrEqual(code!.x + code!.width + 3 - 0.01);
  });
});
