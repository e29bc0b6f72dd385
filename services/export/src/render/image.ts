import sharp from 'sharp';
import type { ExportImage, ExportNote } from '../model.js';
import type { FontKey } from './fonts.js';
import { loadFontData, openFonts } from './fonts.js';
import { bandRects, Flow, type Item, type Op } from './flow.js';
import { prepareImages, type PreparedImage } from './images.js';
import { formatDay, labelsFor } from './labels.js';
import { firstImage, markdownBlocks, withoutImages } from './markdown.js';
import { DARK, LIGHT, MARK_PATH, MARK_RADIUS, type Palette } from './theme.js';
import { Typesetter } from './typeset.js';

export interface CardOptions {
  theme: 'light' | 'dark';
  /** Pixels across; 1080 by default. The card is at most 5:4 tall (1350 px at 1080). */
  width?: number;
  /** The language of the labels and the date; by default the note's own. */
  locale?: string;
  timeZone?: string;
}

const n = (value: number): string => String(Math.round(value * 100) / 100);

/**
 * SVG drawing every glyph as a path (from the shipped fonts via fontkit), so the rasteriser
 * needs no font of its own and the host's fonts never take part.
 */
class Svg {
  private readonly defs = new Map<string, string>();
  private readonly body: string[] = [];
  private clips = 0;

  constructor(private readonly ts: Typesetter) {}

  add(markup: string): void {
    this.body.push(markup);
  }

  def(id: string, markup: string): void {
    if (!this.defs.has(id)) this.defs.set(id, markup);
  }

  private glyph(font: FontKey, id: number): string | null {
    const key = `${font[0]}${id}`;
    if (!this.defs.has(key)) {
      const d = this.ts.fonts[font].getGlyph(id).path.toSVG();
      this.defs.set(key, d ? `<path id="${key}" d="${d}"/>` : '');
    }
    return this.defs.get(key) ? key : null;
  }

  text(op: Extract<Op, { kind: 'text' }>, dx: number, dy: number): void {
    const run = this.ts.shape(op.text, op.font);
    const scale = op.size / this.ts.fonts[op.font].unitsPerEm;
    const uses: string[] = [];
    let pen = 0;
    run.glyphs.forEach((glyph, i) => {
      const position = run.positions[i];
      const id = this.glyph(op.font, glyph.id);
      if (id) {
        const x = pen + (position?.xOffset ?? 0);
        const y = position?.yOffset ?? 0;
        uses.push(`<use href="#${id}" x="${n(x)}"${y ? ` y="${n(y)}"` : ''}/>`);
      }
      pen += position?.xAdvance ?? glyph.advanceWidth;
    });
    if (uses.length === 0) return;
    const skew = op.italic ? ' skewX(-12)' : '';
    this.add(
      `<g transform="translate(${n(dx + op.x)} ${n(dy + op.y)})${skew} scale(${scale} ${-scale})" fill="${op.color}">${uses.join('')}</g>`,
    );
  }

  op(op: Op, dx: number, dy: number): void {
    switch (op.kind) {
      case 'text':
        this.text(op, dx, dy);
        return;
      case 'rect': {
        const paint = op.fill
          ? `fill="${op.fill}"`
          : `fill="none" stroke="${op.stroke ?? '#000'}" stroke-width="${n(op.lineWidth ?? 1)}"`;
        const radius = op.radius ? ` rx="${n(op.radius)}"` : '';
        this.add(
          `<rect x="${n(dx + op.x)}" y="${n(dy + op.y)}" width="${n(op.width)}" height="${n(op.height)}"${radius} ${paint}/>`,
        );
        return;
      }
      case 'line':
        this.add(
          `<line x1="${n(dx + op.x1)}" y1="${n(dy + op.y1)}" x2="${n(dx + op.x2)}" y2="${n(dy + op.y2)}" stroke="${op.color}" stroke-width="${n(op.width)}"/>`,
        );
        return;
      case 'circle': {
        const paint = op.fill
          ? `fill="${op.fill}"`
          : `fill="none" stroke="${op.stroke ?? '#000'}" stroke-width="${n(op.lineWidth ?? 1)}"`;
        this.add(`<circle cx="${n(dx + op.cx)}" cy="${n(dy + op.cy)}" r="${n(op.r)}" ${paint}/>`);
        return;
      }
      case 'tick': {
        const x = dx + op.x;
        const y = dy + op.y;
        const s = op.size;
        this.add(
          `<path d="M${n(x + s * 0.24)} ${n(y + s * 0.52)}L${n(x + s * 0.42)} ${n(y + s * 0.7)}L${n(x + s * 0.77)} ${n(y + s * 0.31)}" fill="none" stroke="${op.color}" stroke-width="${n(op.width)}" stroke-linecap="round" stroke-linejoin="round"/>`,
        );
        return;
      }
      case 'link':
        return;
    }
  }

  image(
    image: PreparedImage,
    x: number,
    y: number,
    width: number,
    height: number,
    radius: number,
  ): void {
    const clip = `clip${++this.clips}`;
    this.def(
      clip,
      `<clipPath id="${clip}"><rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" rx="${n(radius)}"/></clipPath>`,
    );
    this.add(
      `<image x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" preserveAspectRatio="none" clip-path="url(#${clip})" href="data:image/${image.format};base64,${image.data.toString('base64')}"/>`,
    );
  }

  toString(width: number, height: number): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}"><defs>${[...this.defs.values()].join('')}</defs>${this.body.join('')}</svg>`;
  }
}

/** Items stacked from `top`: their y, and where the last one ends. */
const stack = (items: readonly Item[], top: number): { ys: number[]; bottom: number } => {
  const ys: number[] = [];
  let y = top;
  items.forEach((item, i) => {
    y += i === 0 ? 0 : item.space;
    ys.push(y);
    y += item.height;
  });
  return { ys, bottom: y };
};

/**
 * The note as a PNG card to share: the Noted mark, the date, the title, tags, the first image
 * and the text, in the app's light or dark colours and the PDF's typography. A note taller than
 * 5:4 is cut with a fade and "Continues in Noted" (in the note's language).
 */
export const renderNoteCard = async (
  note: ExportNote,
  images: readonly ExportImage[],
  options: CardOptions,
): Promise<Buffer> => {
  const width = Math.round(options.width ?? 1080);
  const k = width / 1080;
  const palette: Palette = options.theme === 'dark' ? DARK : LIGHT;
  const labels = labelsFor(note, options.locale);
  const margin = 44 * k;
  const pad = 72 * k;
  const contentWidth = width - 2 * margin - 2 * pad;
  const size = 30 * k;
  const maxHeight = Math.round(width * 1.25);

  const blocks = markdownBlocks(note.body);
  const hero = firstImage(blocks);
  const [data, prepared] = await Promise.all([
    loadFontData(),
    prepareImages(
      images.filter((image) => image.url === hero?.url),
      Math.ceil(contentWidth),
    ),
  ]);
  const ts = new Typesetter(openFonts(data));
  const flow = new Flow(ts, {
    width: contentWidth,
    size,
    palette,
    images: prepared,
    unitsPerPixel: 1,
    maxImageHeight: 440 * k,
    missingImage: labels.missingImage,
    imageRadius: 20 * k,
    // Past the card's height nothing shows: a long note is not laid out to its end.
    stopAfter: maxHeight,
  });
  flow.title(note.title.trim() || labels.untitled);
  flow.tags(note.tags, size * 0.5);
  if (hero && prepared.has(hero.url)) flow.body([hero], size * 1.1);
  flow.body(withoutImages(blocks), size * 1.1);

  const left = margin + pad;
  const headerHeight = 60 * k;
  const top = margin + pad * 0.8 + headerHeight + 40 * k;
  const { ys, bottom } = stack(flow.items, top);
  const footer = 84 * k;
  const cut = bottom + pad + margin > maxHeight;
  const height = cut
    ? maxHeight
    : Math.max(Math.ceil(bottom + pad + margin), Math.round(width * 0.5));
  const limit = cut ? maxHeight - margin - footer : height;

  const svg = new Svg(ts);
  svg.add(`<rect width="${width}" height="${height}" fill="${palette.background}"/>`);
  const cardRadius = 32 * k;
  const cardWidth = width - 2 * margin;
  const cardHeight = height - 2 * margin;
  if (options.theme === 'light') {
    // A soft shadow from a few translucent rounded rectangles: librsvg's blur filter took
    // 450 ms of a card's 550.
    for (let i = 10; i >= 1; i--) {
      const grow = i * 2.2 * k;
      svg.add(
        `<rect x="${n(margin - grow)}" y="${n(margin - grow + 8 * k)}" width="${n(cardWidth + 2 * grow)}" height="${n(cardHeight + 2 * grow)}" rx="${n(cardRadius + grow)}" fill="#101828" fill-opacity="0.009"/>`,
      );
    }
  }
  svg.add(
    `<rect x="${n(margin)}" y="${n(margin)}" width="${n(cardWidth)}" height="${n(cardHeight)}" rx="${n(cardRadius)}" fill="${palette.surface}" stroke="${palette.border}" stroke-width="${n(1.5 * k)}"/>`,
  );

  // The header: the mark and the name on the left, the date on the right.
  const markSize = headerHeight;
  const markTop = margin + pad * 0.8;
  const markScale = markSize / 512;
  svg.add(
    `<g transform="translate(${n(left)} ${n(markTop)}) scale(${markScale})"><rect width="512" height="512" rx="${MARK_RADIUS}" fill="${palette.accent}"/><path d="${MARK_PATH}" fill="${palette.accentText}"/></g>`,
  );
  const nameSize = 30 * k;
  const nameBaseline = markTop + flow.baseline(markSize, nameSize);
  svg.text(
    {
      kind: 'text',
      x: 0,
      y: 0,
      text: 'Noted',
      font: 'bold',
      size: nameSize,
      color: palette.strong,
      italic: false,
    },
    left + markSize + 18 * k,
    nameBaseline,
  );
  const dateSize = 23 * k;
  const date = formatDay(new Date(note.updatedAt), labels, options.timeZone);
  const dateWidth = ts.width(date, 'sans', dateSize);
  svg.text(
    {
      kind: 'text',
      x: 0,
      y: 0,
      text: date,
      font: 'sans',
      size: dateSize,
      color: palette.subtle,
      italic: false,
    },
    width - left - dateWidth,
    markTop + flow.baseline(markSize, dateSize),
  );

  // The note, clipped where the card ends.
  svg.def(
    'content',
    `<clipPath id="content"><rect x="0" y="0" width="${width}" height="${n(limit)}"/></clipPath>`,
  );
  svg.add('<g clip-path="url(#content)">');
  const placed = flow.items
    .map((item, i) => ({ item, y: ys[i] ?? 0, height: item.height }))
    .filter(({ y }) => y < limit);
  for (const { band, top, bottom } of bandRects(placed)) {
    svg.add(
      `<rect x="${n(left + band.x)}" y="${n(top)}" width="${n(band.width)}" height="${n(bottom - top)}" rx="${n(band.radius)}" fill="${band.color}"/>`,
    );
  }
  for (const { item, y } of placed) {
    if (item.image) {
      const image = prepared.get(item.image.url);
      const slot = item.image;
      if (image) svg.image(image, left + slot.x, y, slot.width, slot.height, slot.radius);
    }
    for (const op of item.ops) svg.op(op, left, y);
  }
  svg.add('</g>');

  if (cut) {
    const fade = 170 * k;
    svg.def(
      'fade',
      `<linearGradient id="fade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${palette.surface}" stop-opacity="0"/><stop offset="0.9" stop-color="${palette.surface}" stop-opacity="1"/></linearGradient>`,
    );
    svg.add(
      `<rect x="${n(margin + 2 * k)}" y="${n(limit - fade)}" width="${n(width - 2 * margin - 4 * k)}" height="${n(fade + 2)}" fill="url(#fade)"/>`,
    );
    const moreSize = 27 * k;
    const more = `${labels.continues} →`;
    const moreWidth = ts.width(more, 'bold', moreSize);
    svg.text(
      {
        kind: 'text',
        x: 0,
        y: 0,
        text: more,
        font: 'bold',
        size: moreSize,
        color: palette.link,
        italic: false,
      },
      (width - moreWidth) / 2,
      height - margin - footer * 0.62 + moreSize * 0.35,
    );
  }

  return sharp(Buffer.from(svg.toString(width, height)))
    .png({ compressionLevel: 8 })
    .toBuffer();
};
