import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExportImage } from '../model.js';
import type { Item } from './flow.js';
import { paginate, renderNotePdf } from './pdf.js';
import { longBody, sampleImages, sampleNote } from './test/fixtures.js';

/** The text of each page, as a PDF reader extracts it. */
const pagesOf = async (pdf: Buffer): Promise<string[]> => {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: false });
  return text;
};

/** pdfkit writes object dictionaries uncompressed: image and font entries can be read as text. */
const raw = (pdf: Buffer) => pdf.toString('latin1');

let images: ExportImage[];
let pdf: Buffer;
let pages: string[];
beforeAll(async () => {
  images = await sampleImages();
  pdf = await renderNotePdf(sampleNote(), images, { now: new Date('2026-03-06T08:00:00Z') });
  pages = await pagesOf(pdf);
});

describe('renderNotePdf', () => {
  it('prints the title, dates, tags and the Markdown in English and Chinese', () => {
    const text = pages.join('\n');
    expect(raw(pdf).startsWith('%PDF-')).toBe(true);
    expect(text).toContain('导出设计：PDF 与图片 Export design');
    expect(text).toContain('Created March 1, 2026');
    expect(text).toContain('Updated March 5, 2026');
    expect(text).toMatch(/#export\s+#设计\s+#design\u00a0?\s?review/);
    expect(text).toContain('People choose a notes app by whether their notes can leave it.');
    expect(text).toContain('今天我们讨论了笔记导出的设计。');
    expect(text).toContain('字体随服务一起发布');
    // Wiki links as their label, not as brackets.
    expect(text).toContain('linked notes');
    expect(text).not.toContain('[[');
  });

  it('prints task items, list items, the quote, the table cells and the code', () => {
    const text = pages.join('\n');
    for (const expected of [
      'Choose the renderer 选择渲染器',
      'Ship the fonts with the service 字体随服务发布',
      '1.',
      'Finally draw them',
      '嵌套的列表项，包含中文',
      '引用：标题不能孤零零地留在页面底部。',
      'pdfkit',
      'Apache-2.0',
      '300 MB',
      '不可接受',
      'export const renderNotePdf = async',
      '// 中文注释',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('makes links clickable, a link wrapped over two lines on both', () => {
    const uris = [...raw(pdf).matchAll(/\/URI \(([^)]*)\)/g)].map((match) => match[1]);
    expect(uris.filter((uri) => uri === 'https://example.com/docs/export')).toHaveLength(1);
    expect(uris.filter((uri) => uri?.endsWith('/and/keeps/going'))).toHaveLength(2);
  });

  it('opens only http, https and mailto links; any other is its text alone', async () => {
    const body = [
      'Kept: [web](https://example.com/safe) [plain](HTTP://Example.org/plain)',
      '[mail](mailto:ann@example.com) <https://auto.example.com/x> and bob@example.com.',
      '',
      'Shown as text: [js one](javascript:alert(1)) [js two](< JaVaScRiPt:alert(2)>)',
      '[js tab](<java\tscript:alert(3)>) [js entity](java&#9;script:alert(4))',
      '[js hex](&#x6A;avascript:alert(5)) [js control](<\u0001javascript:alert(6)>)',
      '[vb](vbscript:msgbox(1)) [data link](data:text/html;base64,PHNjcmlwdD4=)',
      '[file link](file:///etc/passwd) [relative](/notes/abc) [bare](page.html)',
      '[anchor](#top) [ref js][bad] [ref web][good]',
      '',
      '[bad]: javascript:alert(7)',
      '[good]: https://example.com/ref',
    ].join('\n');
    const linked = await renderNotePdf(sampleNote(body, 'Links'), []);
    const document = await getDocumentProxy(new Uint8Array(linked));
    const targets: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const annotations = (await (await document.getPage(number)).getAnnotations()) as {
        subtype: string;
        url?: string;
        unsafeUrl?: string;
        action?: string;
      }[];
      for (const annotation of annotations) {
        expect(annotation.subtype).toBe('Link');
        expect(annotation.action, 'a named or script action').toBeUndefined();
        // pdf.js hides a URI it would not open in `url`; `unsafeUrl` is what the file holds.
        targets.push(annotation.unsafeUrl ?? annotation.url ?? '');
      }
    }
    expect(targets.sort()).toEqual(
      [
        'https://example.com/safe',
        'http://example.org/plain',
        'mailto:ann@example.com',
        'https://auto.example.com/x',
        'mailto:bob@example.com',
        'https://example.com/ref',
      ].sort(),
    );
    const uris = [...raw(linked).matchAll(/\/URI\s*\(((?:\\.|[^\\)])*)\)/g)].map((m) => m[1]);
    expect(uris).toHaveLength(targets.length);
    for (const uri of uris) expect(uri).toMatch(/^(https?:\/\/|mailto:)/);
    expect(raw(linked)).not.toMatch(/\/(JavaScript|JS|Launch|SubmitForm|ImportData)\b/);
    expect(raw(linked)).not.toMatch(/javascript:|vbscript:|data:text/i);

    const text = (await pagesOf(linked)).join('\n');
    for (const label of ['js one', 'js two', 'js tab', 'js entity', 'js hex', 'js control']) {
      expect(text).toContain(label);
    }
    for (const label of ['vb', 'data link', 'file link', 'relative', 'bare', 'anchor', 'ref js']) {
      expect(text).toContain(label);
    }
  });

  it('numbers its pages "n / total" in the footer', () => {
    expect(pages.length).toBe(2);
    pages.forEach((page, i) => expect(page).toContain(`${i + 1} / ${pages.length}`));
  });

  it('embeds the images it was given, scaled down, and a placeholder for one it was not', () => {
    const xobjects = raw(pdf).match(/\/Subtype \/Image/g) ?? [];
    // The wide JPEG, and the PNG with its transparency (an image and its soft mask).
    expect(xobjects).toHaveLength(3);
    expect(raw(pdf)).toMatch(/\/Width 1600\s+\/Height 800/);
    expect(raw(pdf)).toMatch(/\/Width 320\s+\/Height 320/);
    expect(pages.join('\n')).toContain('Image not included: Missing one');
  });

  it('sets every character in the shipped fonts, embedded as subsets, none of the host', () => {
    const names = [...raw(pdf).matchAll(/\/BaseFont \/([^\s/>]+)/g)].map((match) => match[1]);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(
        /^[A-Z]{6}\+(NotoSansSC-Regular|NotoSansSC-Bold|JetBrainsMono-Regular|NotoEmoji-Regular|NotoSans-Regular|NotoSans-Bold)$/,
      );
    }
    expect(new Set(names.map((name) => name?.slice(7)))).toEqual(
      new Set([
        'NotoSansSC-Regular',
        'NotoSansSC-Bold',
        'JetBrainsMono-Regular',
        'NotoEmoji-Regular',
      ]),
    );
    expect(raw(pdf).match(/\/FontFile2/g)?.length).toBe(4);
  });

  it('carries the title and the time it was made in its metadata', async () => {
    const document = await getDocumentProxy(new Uint8Array(pdf));
    const { info } = (await document.getMetadata()) as unknown as { info: Record<string, unknown> };
    expect(info.Title).toBe('导出设计：PDF 与图片 Export design');
    expect(String(info.CreationDate)).toMatch(/^D:20260306080000Z/);
  });

  it('prints the labels in Chinese for a Chinese reader', async () => {
    const zh = await pagesOf(await renderNotePdf(sampleNote(), [], { locale: 'zh-CN' }));
    expect(zh.join('\n')).toContain('创建于 2026年3月1日');
    expect(zh.join('\n')).toContain('更新于 2026年3月5日');
    expect(zh.join('\n')).toContain('图片未包含');
  });

  it('makes a long note several pages, each with its footer and no heading left at its foot', async () => {
    const long = await renderNotePdf(sampleNote(longBody()), images);
    const longPages = await pagesOf(long);
    expect(longPages.length).toBeGreaterThanOrEqual(6);
    longPages.forEach((page, i) => {
      const lines = page.split('\n').filter((line) => line.trim());
      expect(lines[lines.length - 1]).toContain(`${i + 1} / ${longPages.length}`);
      expect(lines[lines.length - 2]).not.toMatch(
        /^(Section \d+|导出设计 Export design|Tasks|Lists)/,
      );
    });
    const text = longPages.join('\n');
    for (let i = 1; i <= 8; i++) expect(text).toContain(`Section ${i} 第${i}节`);
    // All five images, each once (the PNG with its soft mask).
    expect(raw(long).match(/\/Subtype \/Image/g)).toHaveLength(6);
  });
});

const line = (height: number, index = 0, count = 1, space = 0): Item => ({
  height,
  space,
  ops: [],
  bands: [],
  line: { index, count },
});

describe('paginate', () => {
  it('moves a heading that would end a page to the next one, with the lines after it', () => {
    const heading: Item = { ...line(20), keep: 2 };
    const items = [
      line(80),
      line(10),
      heading,
      line(10, 0, 4),
      line(10, 1, 4),
      line(10, 2, 4),
      line(10, 3, 4),
    ];
    const pages = paginate(items, 120);
    expect(pages[0]?.map((placed) => placed.item)).toEqual([items[0], items[1]]);
    expect(pages[1]?.[0]?.item).toBe(heading);
  });

  it('leaves neither the first nor the last line of a paragraph alone on a page', () => {
    const paragraph = [0, 1, 2, 3, 4].map((i) => line(10, i, 5));
    const orphan = paginate([line(95), ...paragraph], 100);
    expect(orphan[0]).toHaveLength(1);
    const widow = paginate([line(62), ...paragraph], 100);
    expect(widow[0]?.length).toBe(1 + 3);
    expect(widow[1]?.length).toBe(2);
  });

  it('shrinks an image to finish a page, or moves it when it would shrink too much', () => {
    const image = (height: number): Item => ({
      height,
      space: 0,
      ops: [],
      bands: [],
      image: {
        url: '/a.png',
        radius: 0,
        x: 0,
        width: height * 2,
        height,
        minHeight: height * 0.55,
      },
    });
    const shrunk = paginate([line(40), image(80)], 100);
    expect(shrunk).toHaveLength(1);
    expect(shrunk[0]?.[1]?.height).toBe(60);
    expect(shrunk[0]?.[1]?.image?.width).toBe(120);
    const moved = paginate([line(70), image(80)], 100);
    expect(moved).toHaveLength(2);
    expect(moved[1]?.[0]?.height).toBe(80);
    const huge = paginate([image(500)], 100);
    expect(huge[0]?.[0]?.height).toBe(100);
  });

  it('repeats a table header above the rows that start a page', () => {
    const header: Item = { height: 20, space: 0, ops: [], bands: [], keep: 1 };
    const row = (): Item => ({ height: 30, space: 0, ops: [], bands: [], header });
    const pages = paginate([header, row(), row(), row(), row()], 100);
    expect(pages).toHaveLength(2);
    expect(pages[1]?.map((placed) => placed.item === header)).toEqual([true, false, false]);
    for (const page of pages)
      for (const placed of page) expect(placed.y + placed.height).toBeLessThanOrEqual(100);
  });
});
