import sharp from 'sharp';
import type { ExportImage, ExportNote } from '../../model.js';

const at = (iso: string) => new Date(iso);

/** A photo-like JPEG: a gradient with a few shapes, `width` × `height`. */
export const photo = async (width: number, height: number, hue: number): Promise<Buffer> => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${hue + 60},60%,30%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.7}" cy="${height * 0.35}" r="${Math.min(width, height) * 0.18}" fill="#fff8"/>
    <rect x="${width * 0.1}" y="${height * 0.6}" width="${width * 0.5}" height="${height * 0.25}" fill="#0004"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
};

/** A PNG with transparency (a green disc on nothing). */
export const transparentPng = async (size: number): Promise<Buffer> =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.4}" fill="#16a34a"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

export const image = (url: string, contentType: string, bytes: Buffer): ExportImage => ({
  url,
  contentType,
  bytes,
});

/** Five images of different shapes and formats, as a note's images are given to the renderers. */
export const sampleImages = async (): Promise<ExportImage[]> => [
  image('/images/wide.jpg', 'image/jpeg', await photo(2400, 1200, 140)),
  image('/images/tall.jpg', 'image/jpeg', await photo(900, 2000, 20)),
  image(
    '/images/square.webp',
    'image/webp',
    await sharp(await photo(800, 800, 210))
      .webp()
      .toBuffer(),
  ),
  image('/images/logo.png', 'image/png', await transparentPng(320)),
  image('/images/small.jpg', 'image/jpeg', await photo(240, 160, 300)),
];

const ZH_PARAGRAPH =
  '今天我们讨论了笔记导出的设计。用户希望能把自己的笔记完整地带走：PDF 用来打印和归档，图片用来分享到社交网络，Markdown 用来迁移到其他工具。导出的文件必须在任何设备上看起来都一样，所以字体随服务一起发布，而不是依赖主机上安装的字体。';
const EN_PARAGRAPH =
  'People choose a notes app by whether their notes can leave it. The export keeps **headings**, *emphasis*, `inline code`, [links](https://example.com/docs/export) and [[wiki links|linked notes]] so that a printed note reads like the note on screen, with page numbers and sensible page breaks.';

/** A note with every kind of block, in Chinese and English. */
export const sampleBody = (): string => `# 导出设计 Export design

${EN_PARAGRAPH}

${ZH_PARAGRAPH}

## Tasks 任务

- [x] Choose the renderer 选择渲染器
- [ ] Ship the fonts with the service 字体随服务发布
- [ ] Check the page breaks

## Lists

1. First, parse the Markdown
2. Then lay out the blocks
   - nested bullet with **bold** text
   - 嵌套的列表项，包含中文
     - third level
3. Finally draw them

> A quote from the design review: keep a heading with the lines after it.
> 引用：标题不能孤零零地留在页面底部。

| Renderer | Licence | Size 大小 | Notes |
| --- | :---: | ---: | --- |
| pdfkit | MIT | 6 MB | pure JavaScript, embeds font subsets |
| sharp | Apache-2.0 | 8 MB | already in the repository, renders SVG |
| headless browser | — | 300 MB | not acceptable in the service 不可接受 |

\`\`\`ts
export const renderNotePdf = async (note: ExportNote, images: ExportImage[]) => {
  // 中文注释：一个很长的代码行会被折行，而不是超出页面的右边距，这一点在打印时很重要
  const pdf = await render(note, images, { locale: 'zh-CN', now: new Date('2026-03-01T00:00:00Z') });
  return pdf;
};
\`\`\`

![A wide photo](/images/wide.jpg)

Text after the image, then a horizontal rule.

---

![Missing one](/images/missing.png)

Emoji 👍 and symbols ✓ → ★ in a line, and a very long URL https://example.com/a/very/long/path/that/does/not/fit/on/one/line/of/the/page/at/all/and/keeps/going

![Logo](/images/logo.png)
`;

/** About 3,000 words, mixed Chinese and English, with tables, code and five images. */
export const longBody = (): string => {
  const sections: string[] = [sampleBody()];
  const images = ['/images/tall.jpg', '/images/square.webp', '/images/small.jpg'];
  for (let i = 1; i <= 8; i++) {
    sections.push(`## Section ${i} 第${i}节

${EN_PARAGRAPH} ${EN_PARAGRAPH}

${ZH_PARAGRAPH}${ZH_PARAGRAPH}

- Point ${i}.1: ${EN_PARAGRAPH.slice(0, 120)}
- 要点 ${i}.2：${ZH_PARAGRAPH.slice(0, 60)}

| Column A | Column B | 列 C |
| --- | --- | --- |
| ${i}-a | value ${i} | 数值 ${i} |
| ${i}-b | ${EN_PARAGRAPH.slice(0, 80)} | ${ZH_PARAGRAPH.slice(0, 40)} |

\`\`\`js
for (let i = 0; i < ${i}; i++) console.log('line', i); // 第 ${i} 段代码
\`\`\`
${(i + 1) % 3 === 0 ? `\n![Section image](${images[(i + 1) / 3 - 1] ?? ''})\n` : ''}`);
  }
  return sections.join('\n\n');
};

export const sampleNote = (
  body = sampleBody(),
  title = '导出设计：PDF 与图片 Export design',
): ExportNote => ({
  id: 'note-1',
  title,
  body,
  tags: ['export', '设计', 'design review'],
  createdAt: at('2026-03-01T09:30:00Z'),
  updatedAt: at('2026-03-05T18:00:00Z'),
});
