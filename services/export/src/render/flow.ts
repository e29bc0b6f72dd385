import type { FontKey } from './fonts.js';
import type { Block, Inline } from './markdown.js';
import { SCALE, type Palette } from './theme.js';
import type { Line, Span, TextStyle, Typesetter } from './typeset.js';

/** What an item draws, in content coordinates: x from the content's left, y from the item's top. */
export type Op =
  | {
      kind: 'text';
      x: number;
      /** The baseline. */
      y: number;
      text: string;
      font: FontKey;
      size: number;
      color: string;
      italic: boolean;
    }
  | {
      kind: 'rect';
      x: number;
      y: number;
      width: number;
      height: number;
      fill?: string;
      stroke?: string;
      lineWidth?: number;
      radius?: number;
    }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; color: string; width: number }
  | {
      kind: 'circle';
      cx: number;
      cy: number;
      r: number;
      fill?: string;
      stroke?: string;
      lineWidth?: number;
    }
  | { kind: 'tick'; x: number; y: number; size: number; color: string; width: number }
  | { kind: 'link'; x: number; y: number; width: number; height: number; url: string };

/** A background or a bar down the side that runs through consecutive items (code, quotes). */
export interface Band {
  id: number;
  x: number;
  width: number;
  color: string;
  radius: number;
  /** Drawn this far past a page break through the block (the code block's padding). */
  pad: number;
}

/** An item at its place on a page (or on the card). */
export interface Placed {
  item: Item;
  y: number;
  height: number;
  image?: ImageSlot;
}

export interface BandRect {
  band: Band;
  top: number;
  bottom: number;
}

/**
 * The bands of placed items as rectangles, one for each run of consecutive items that share a
 * band (a code block's background, a quote's bar), outer bands first.
 */
export const bandRects = (placed: readonly Placed[]): BandRect[] => {
  const rects: BandRect[] = [];
  // A block cut by a page break keeps its padding on both sides of the break.
  const cutBefore = (item: Item) => (item.line?.index ?? 0) > 0;
  const cutAfter = (item: Item | undefined) =>
    item?.line !== undefined && item.line.index < item.line.count - 1;
  let open = new Map<number, BandRect>();
  placed.forEach(({ item, y, height }, i) => {
    const next = new Map<number, BandRect>();
    for (const band of item.bands) {
      let rect = open.get(band.id);
      if (rect) rect.bottom = y + height;
      else {
        rect = { band, top: y - (cutBefore(item) ? band.pad : 0), bottom: y + height };
        rects.push(rect);
      }
      next.set(band.id, rect);
    }
    if (i === placed.length - 1 && cutAfter(item)) {
      for (const rect of next.values()) rect.bottom += rect.band.pad;
    }
    open = next;
  });
  return rects.sort((a, b) => a.band.id - b.band.id);
};

/** An image's place: drawn at `height` or, to finish a page, down to `minHeight`. */
export interface ImageSlot {
  url: string;
  radius: number;
  x: number;
  width: number;
  height: number;
  minHeight: number;
}

/** One unbreakable piece of the note, stacked top to bottom: a line, a table row, an image. */
export interface Item {
  height: number;
  /** Space above it, dropped at the top of a page. */
  space: number;
  ops: Op[];
  bands: Band[];
  /** How many items after it must be on the same page (a heading's first lines). */
  keep?: number;
  /** Its place among the lines of a paragraph, for orphans and widows. */
  line?: { index: number; count: number };
  /** A table row: the header row repeated above it when it starts a page. */
  header?: Item;
  image?: ImageSlot;
  /** The first baseline, where a list marker goes. */
  baseline?: number;
}

export interface ImageSize {
  width: number;
  height: number;
}

export interface FlowOptions {
  width: number;
  size: number;
  palette: Palette;
  /** Sizes of the images that can be drawn, by URL as written in the note. */
  images: ReadonlyMap<string, ImageSize>;
  /** Drawing units per image pixel (PDF: 0.75 pt, a CSS pixel; card: 1). */
  unitsPerPixel: number;
  maxImageHeight: number;
  /** Shown in place of an image that was not given. */
  missingImage: string;
  /** Corner radius of images (the card rounds them; paper does not). */
  imageRadius?: number;
  /** Stop taking blocks once the items are this tall (the card shows only its first part). */
  stopAfter?: number;
}

interface Context {
  x: number;
  width: number;
  color: string;
  bands: Band[];
  tight: boolean;
  depth: number;
}

type Marker = (baseline: number) => Op[];

/** Turns blocks into items with one design, for pages (PDF) or one tall column (card). */
export class Flow {
  readonly items: Item[] = [];
  /** The items' height stacked, spaces included. */
  private total = 0;
  private marker: Marker | null = null;
  private nextBand = 1;
  private readonly styles = new Map<string, TextStyle>();
  private readonly ascent: number;
  private readonly descent: number;

  constructor(
    private readonly ts: Typesetter,
    private readonly o: FlowOptions,
  ) {
    const sans = ts.fonts.sans;
    this.ascent = sans.ascent / sans.unitsPerEm;
    this.descent = -sans.descent / sans.unitsPerEm;
  }

  private get root(): Context {
    return {
      x: 0,
      width: this.o.width,
      color: this.o.palette.text,
      bands: [],
      tight: false,
      depth: 0,
    };
  }

  /** One style object per distinct style, so runs in the same style join into one piece. */
  style(style: TextStyle): TextStyle {
    const key = JSON.stringify(style);
    let known = this.styles.get(key);
    if (!known) {
      known = style;
      this.styles.set(key, known);
    }
    return known;
  }

  /** Where the baseline sits in a line `height` high of text `size`: the text's box centred. */
  baseline(height: number, size: number): number {
    return (height - (this.ascent + this.descent) * size) / 2 + this.ascent * size;
  }

  /** Ops for laid-out lines, baselines at `baseline`: text, chips, underlines, links. */
  lineOps(line: Line, x: number, baseline: number, top: number, height: number): Op[] {
    const ops: Op[] = [];
    const text: Op[] = [];
    for (const piece of line.pieces) {
      const { style } = piece;
      const px = x + piece.x;
      if (style.background) {
        ops.push({
          kind: 'rect',
          x: px - piece.padStart,
          y: baseline - 0.98 * style.size,
          width: piece.width + piece.padStart + piece.padEnd,
          height: 1.34 * style.size,
          fill: style.background,
          radius: 0.28 * style.size,
        });
      }
      text.push({
        kind: 'text',
        x: px,
        y: baseline,
        text: piece.text,
        font: piece.font,
        size: style.size,
        color: style.color,
        italic: style.italic ?? false,
      });
      const stroke = Math.max(0.5, style.size / 16);
      if (style.underline) {
        const y = baseline + 0.13 * style.size;
        ops.push({
          kind: 'line',
          x1: px,
          y1: y,
          x2: px + piece.width,
          y2: y,
          color: style.color,
          width: stroke,
        });
      }
      if (style.strike) {
        const y = baseline - 0.3 * style.size;
        ops.push({
          kind: 'line',
          x1: px,
          y1: y,
          x2: px + piece.width,
          y2: y,
          color: style.color,
          width: stroke,
        });
      }
      if (style.link) {
        ops.push({ kind: 'link', x: px, y: top, width: piece.width, height, url: style.link });
      }
    }
    return [...ops, ...text];
  }

  /** Items for laid-out lines, one per line; the first takes the pending list marker. */
  private pushLines(
    lines: Line[],
    ctx: Context,
    size: number,
    leading: number,
    space: number,
    keep?: (index: number, count: number) => number | undefined,
  ): void {
    const height = size * leading;
    const baseline = this.baseline(height, size);
    lines.forEach((line, index) => {
      const item: Item = {
        height,
        space: index === 0 ? space : 0,
        ops: this.lineOps(line, ctx.x, baseline, 0, height),
        bands: ctx.bands,
        line: { index, count: lines.length },
        baseline,
      };
      const kept = keep?.(index, lines.length);
      if (kept) item.keep = kept;
      this.push(item);
    });
  }

  /** Adds an item, with the list marker waiting for the first line of its item. */
  push(item: Item): void {
    if (this.marker && item.baseline !== undefined) {
      // Before the text, so that copied text reads "1. First" and not "First1.".
      item.ops.unshift(...this.marker(item.baseline));
      this.marker = null;
    }
    this.total += (this.items.length > 0 ? item.space : 0) + item.height;
    this.items.push(item);
  }

  private get full(): boolean {
    return this.o.stopAfter !== undefined && this.total > this.o.stopAfter;
  }

  spans(inlines: readonly Inline[], base: TextStyle): Span[] {
    const { palette } = this.o;
    return inlines.map((inline) => {
      let face = base.face;
      if (inline.code) face = 'mono';
      else if (inline.bold) face = 'bold';
      const style: TextStyle = { ...base, face };
      if (inline.italic) style.italic = true;
      if (inline.strike) style.strike = true;
      if (inline.code) {
        style.size = base.size * 0.88;
        style.background = palette.codeBackground;
        style.pad = base.size * SCALE.chipPad;
      }
      if (inline.link) {
        style.color = palette.link;
        style.underline = true;
        style.link = inline.link;
      } else if (inline.wiki) style.color = palette.link;
      return { text: inline.text, style: this.style(style) };
    });
  }

  /** The note's title, large and bold. */
  title(text: string): void {
    const size = this.o.size * SCALE.title;
    const style = this.style({ face: 'bold', size, color: this.o.palette.strong });
    const lines = this.ts.layout([{ text, style }], this.o.width);
    this.pushLines(lines, this.root, size, SCALE.titleLeading, 0);
  }

  /** A small muted line (dates). */
  meta(text: string, space: number): void {
    const size = this.o.size * SCALE.meta;
    const style = this.style({ face: 'sans', size, color: this.o.palette.subtle });
    this.pushLines(this.ts.layout([{ text, style }], this.o.width), this.root, size, 1.6, space);
  }

  /** Tags as chips. */
  tags(tags: readonly string[], space: number): void {
    if (tags.length === 0) return;
    const size = this.o.size * SCALE.meta;
    const { palette } = this.o;
    const chip = this.style({
      face: 'sans',
      size,
      color: palette.chipText,
      background: palette.chip,
      pad: size * 0.55,
    });
    const gap = this.style({ face: 'sans', size, color: palette.text });
    const spans = tags.flatMap((tag, i) => [
      ...(i > 0 ? [{ text: '   ', style: gap }] : []),
      { text: `#${tag.replace(/\s/g, '\u00a0')}`, style: chip },
    ]);
    const lines = this.ts.layout(spans, this.o.width);
    const height = size * 2.1;
    const baseline = this.baseline(height, size);
    lines.forEach((line, index) => {
      this.push({
        height,
        space: index === 0 ? space : 0,
        ops: this.lineOps(line, 0, baseline, 0, height),
        bands: [],
      });
    });
  }

  /** A rule across the content. */
  rule(space: number, after: number, color = this.o.palette.border): void {
    const width = Math.max(0.5, this.o.size / 14);
    this.push({
      height: after,
      space,
      ops: [{ kind: 'line', x1: 0, y1: width / 2, x2: this.o.width, y2: width / 2, color, width }],
      bands: [],
    });
  }

  /** The note's body. */
  body(blocks: readonly Block[], space: number): void {
    this.blocks(blocks, this.root, space);
  }

  private blocks(blocks: readonly Block[], ctx: Context, first: number): void {
    const s = this.o.size;
    let previous: Block | null = null;
    for (const block of blocks) {
      if (this.full) return;
      let space: number;
      if (!previous) space = first;
      else if (block.type === 'heading') space = s * (SCALE.headingSpace[block.depth - 1] ?? 1);
      else if (previous.type === 'heading') space = s * SCALE.afterHeading;
      else space = s * (ctx.tight ? SCALE.tightSpace : SCALE.paragraphSpace);
      this.block(block, ctx, space);
      previous = block;
    }
  }

  private block(block: Block, ctx: Context, space: number): void {
    const s = this.o.size;
    const { palette } = this.o;
    switch (block.type) {
      case 'heading': {
        const size = s * (SCALE.heading[block.depth - 1] ?? 1);
        const color = block.depth === 6 ? palette.muted : palette.strong;
        const base = this.style({ face: 'bold', size, color });
        const lines = this.ts.layout(this.spans(block.inlines, base), ctx.width);
        // A heading keeps its own lines and the first two lines after it on its page.
        this.pushLines(lines, ctx, size, SCALE.headingLeading, space, (i, n) => n - i + 1);
        return;
      }
      case 'paragraph': {
        const base = this.style({ face: 'sans', size: s, color: ctx.color });
        const lines = this.ts.layout(this.spans(block.inlines, base), ctx.width);
        this.pushLines(lines, ctx, s, SCALE.leading, space);
        return;
      }
      case 'list':
        this.list(block, ctx, space);
        return;
      case 'code':
        this.code(block.text, ctx, space);
        return;
      case 'quote': {
        const bar: Band = {
          id: this.nextBand++,
          x: ctx.x,
          width: s * SCALE.quoteBar,
          color: palette.borderStrong,
          radius: (s * SCALE.quoteBar) / 2,
          pad: 0,
        };
        const indent = ctx.width - s * SCALE.quoteIndent >= s * 8 ? s * SCALE.quoteIndent : 0;
        const inner: Context = {
          ...ctx,
          x: ctx.x + indent,
          width: ctx.width - indent,
          color: palette.muted,
          bands: [...ctx.bands, bar],
        };
        this.blocks(block.blocks, inner, space);
        return;
      }
      case 'table':
        this.table(block, ctx, space);
        return;
      case 'hr':
        this.push({
          height: s * 0.6,
          space: space + s * 0.6,
          ops: [
            {
              kind: 'line',
              x1: ctx.x,
              y1: s * 0.3,
              x2: ctx.x + ctx.width,
              y2: s * 0.3,
              color: palette.borderStrong,
              width: Math.max(0.5, s / 14),
            },
          ],
          bands: ctx.bands,
        });
        return;
      case 'image':
        this.image(block.url, block.alt, ctx, space);
        return;
    }
  }

  private list(block: Extract<Block, { type: 'list' }>, ctx: Context, space: number): void {
    const s = this.o.size;
    const { palette } = this.o;
    // Nested deeper than the page is wide, items stop moving right.
    const indent = ctx.width - s * SCALE.listIndent >= s * 8 ? s * SCALE.listIndent : 0;
    const tight = !block.spread;
    block.items.forEach((item, index) => {
      if (this.full) return;
      const inner: Context = {
        ...ctx,
        x: ctx.x + indent,
        width: ctx.width - indent,
        tight,
        depth: ctx.depth + 1,
        color: item.checked ? palette.muted : ctx.color,
      };
      const x = inner.x;
      if (item.checked !== null) {
        const checked = item.checked;
        this.marker = (baseline) => {
          const box = s * 0.92;
          const top = baseline - 0.36 * s - box / 2;
          const left = x - s * 1.3;
          const radius = box * 0.22;
          return checked
            ? [
                {
                  kind: 'rect',
                  x: left,
                  y: top,
                  width: box,
                  height: box,
                  fill: palette.accent,
                  radius,
                },
                {
                  kind: 'tick',
                  x: left,
                  y: top,
                  size: box,
                  color: palette.accentText,
                  width: s * 0.13,
                },
              ]
            : [
                {
                  kind: 'rect',
                  x: left + s * 0.04,
                  y: top + s * 0.04,
                  width: box - s * 0.08,
                  height: box - s * 0.08,
                  stroke: palette.subtle,
                  lineWidth: s * 0.08,
                  radius,
                },
              ];
        };
      } else if (block.ordered) {
        const label = `${block.start + index}.`;
        this.marker = (baseline) => {
          const style = this.style({ face: 'sans', size: s, color: palette.muted });
          const width = this.ts.width(label, 'sans', s);
          return [
            {
              kind: 'text',
              x: x - s * 0.45 - width,
              y: baseline,
              text: label,
              font: 'sans',
              size: style.size,
              color: style.color,
              italic: false,
            },
          ];
        };
      } else {
        const level = ctx.depth % 3;
        this.marker = (baseline) => {
          const cx = x - s * 0.85;
          const cy = baseline - 0.34 * s;
          const r = s * 0.16;
          if (level === 0) return [{ kind: 'circle', cx, cy, r, fill: palette.muted }];
          if (level === 1)
            return [
              { kind: 'circle', cx, cy, r: r * 0.9, stroke: palette.muted, lineWidth: s * 0.07 },
            ];
          return [
            {
              kind: 'rect',
              x: cx - r * 0.85,
              y: cy - r * 0.85,
              width: r * 1.7,
              height: r * 1.7,
              fill: palette.muted,
            },
          ];
        };
      }
      const itemSpace = index === 0 ? space : s * (tight ? SCALE.tightSpace : SCALE.paragraphSpace);
      if (item.blocks.length === 0) {
        this.pushLines([{ pieces: [], width: 0 }], inner, s, SCALE.leading, itemSpace);
      } else {
        this.blocks(item.blocks, inner, itemSpace);
      }
      this.marker = null;
    });
  }

  private code(text: string, ctx: Context, space: number): void {
    const s = this.o.size;
    const { palette } = this.o;
    const size = s * SCALE.code;
    const padX = s * SCALE.codePadX;
    const padY = s * SCALE.codePadY;
    const height = size * SCALE.codeLeading;
    const style = this.style({ face: 'mono', size, color: palette.text });
    const band: Band = {
      id: this.nextBand++,
      x: ctx.x,
      width: ctx.width,
      color: palette.codeBackground,
      radius: s * 0.35,
      pad: s * SCALE.codePadY,
    };
    const bands = [...ctx.bands, band];
    const inner = ctx.width - 2 * padX;
    const lines = text
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '    ')
      .replace(/\n+$/, '')
      .split('\n')
      .flatMap((source) => this.codeLines(source, style, inner));
    lines.forEach(({ line, indent }, index) => {
      const top = index === 0 ? padY : 0;
      const bottom = index === lines.length - 1 ? padY : 0;
      const baseline = top + this.baseline(height, size);
      this.push({
        height: top + height + bottom,
        space: index === 0 ? space : 0,
        ops: this.lineOps(line, ctx.x + padX + indent, baseline, top, height),
        bands,
        line: { index, count: lines.length },
        baseline,
      });
    });
  }

  /**
   * One line of code set in `width`; what does not fit continues below, indented two
   * characters past the line's own indentation, so a wrapped line reads as one.
   */
  private codeLines(
    source: string,
    style: TextStyle,
    width: number,
  ): { line: Line; indent: number }[] {
    const first = this.ts.layout([{ text: source, style }], width)[0];
    if (!first) return [{ line: { pieces: [], width: 0 }, indent: 0 }];
    const taken = first.pieces.map((piece) => piece.text).join('').length;
    const rest = source.slice(taken).replace(/^\s+/, '');
    if (!rest) return [{ line: first, indent: 0 }];
    const lead = /^\s*/.exec(source)?.[0] ?? '';
    const indent = Math.min(this.ts.width(`${lead}  `, 'mono', style.size), width / 2);
    const more = this.ts
      .layout([{ text: rest, style }], width - indent)
      .map((line) => ({ line, indent }));
    return [{ line: first, indent: 0 }, ...more];
  }

  private table(block: Extract<Block, { type: 'table' }>, ctx: Context, space: number): void {
    const s = this.o.size;
    const { palette } = this.o;
    const size = s * SCALE.table;
    const padX = s * SCALE.cellPadX;
    const padY = s * SCALE.cellPadY;
    const columns = Math.max(...block.rows.map((row) => row.length), 1);
    const base = this.style({ face: 'sans', size, color: ctx.color });
    const head = this.style({ face: 'bold', size, color: palette.strong });
    const cells = block.rows.map((row, r) =>
      Array.from({ length: columns }, (_, c) => this.spans(row[c] ?? [], r === 0 ? head : base)),
    );
    const natural = new Array<number>(columns).fill(0);
    const least = new Array<number>(columns).fill(0);
    for (const row of cells) {
      row.forEach((spans, c) => {
        const one = this.ts.layout(spans, Infinity);
        natural[c] = Math.max(natural[c] ?? 0, ...one.map((line) => line.width));
        least[c] = Math.max(least[c] ?? 0, this.ts.minWidth(spans));
      });
    }
    const widths = columnWidths(natural, least, ctx.width - columns * 2 * padX);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const lineHeight = size * SCALE.tableLeading;
    const baseline = this.baseline(lineHeight, size);
    const border = Math.max(0.5, s / 16);
    let header: Item | undefined;
    cells.forEach((row, r) => {
      const laid = row.map((spans, c) => this.ts.layout(spans, widths[c] ?? 0));
      const height = Math.max(...laid.map((lines) => lines.length), 1) * lineHeight + 2 * padY;
      const ops: Op[] = [];
      const tableWidth = sum(widths) + columns * 2 * padX;
      if (r === 0) {
        ops.push({
          kind: 'rect',
          x: ctx.x,
          y: 0,
          width: tableWidth,
          height,
          fill: palette.tableHeader,
        });
      }
      let x = ctx.x;
      laid.forEach((lines, c) => {
        const width = widths[c] ?? 0;
        const align = block.align[c];
        lines.forEach((line, i) => {
          let offset = 0;
          if (align === 'right') offset = width - line.width;
          else if (align === 'center') offset = (width - line.width) / 2;
          const top = padY + i * lineHeight;
          ops.push(...this.lineOps(line, x + padX + offset, top + baseline, top, lineHeight));
        });
        x += width + 2 * padX;
      });
      const color = palette.borderStrong;
      ops.push({
        kind: 'line',
        x1: ctx.x,
        y1: 0,
        x2: ctx.x + tableWidth,
        y2: 0,
        color,
        width: border,
      });
      ops.push({
        kind: 'line',
        x1: ctx.x,
        y1: height,
        x2: ctx.x + tableWidth,
        y2: height,
        color,
        width: border,
      });
      let edge = ctx.x;
      for (let c = 0; c <= columns; c++) {
        ops.push({ kind: 'line', x1: edge, y1: 0, x2: edge, y2: height, color, width: border });
        edge += (widths[c] ?? 0) + 2 * padX;
      }
      const item: Item = { height, space: r === 0 ? space : 0, ops, bands: ctx.bands };
      if (r === 0) {
        header = item;
        item.keep = Math.min(1, cells.length - 1);
      } else if (header) item.header = header;
      this.push(item);
    });
  }

  private image(url: string, alt: string, ctx: Context, space: number): void {
    const s = this.o.size;
    const { palette } = this.o;
    const size = this.o.images.get(url);
    if (!size) {
      const style = this.style({ face: 'sans', size: s * 0.88, color: palette.subtle });
      const label = alt ? `${this.o.missingImage}: ${alt}` : this.o.missingImage;
      const lines = this.ts.layout([{ text: label, style }], ctx.width - 2 * s);
      const lineHeight = style.size * 1.5;
      const height = lines.length * lineHeight + s;
      const ops: Op[] = [
        {
          kind: 'rect',
          x: ctx.x,
          y: 0,
          width: ctx.width,
          height,
          stroke: palette.border,
          lineWidth: Math.max(0.5, s / 14),
          radius: s * 0.3,
        },
      ];
      lines.forEach((line, i) => {
        const top = s / 2 + i * lineHeight;
        ops.push(
          ...this.lineOps(
            line,
            ctx.x + s,
            top + this.baseline(lineHeight, style.size),
            top,
            lineHeight,
          ),
        );
      });
      this.push({ height, space, ops, bands: ctx.bands });
      return;
    }
    let width = Math.min(ctx.width, size.width * this.o.unitsPerPixel);
    let height = (width * size.height) / size.width;
    if (height > this.o.maxImageHeight) {
      height = this.o.maxImageHeight;
      width = (height * size.width) / size.height;
    }
    this.push({
      height,
      space,
      ops: [],
      bands: ctx.bands,
      image: {
        url,
        radius: this.o.imageRadius ?? 0,
        x: ctx.x + (ctx.width - width) / 2,
        width,
        height,
        minHeight: height * 0.55,
      },
    });
  }
}

/**
 * Column widths for a table `available` wide: each column as wide as its longest line when
 * they all fit; otherwise columns narrower than an even share keep their width and the rest
 * share what is left in proportion to their lines, none narrower than its longest word (nor
 * than an even share, when even the words do not fit: then words are cut).
 */
export const columnWidths = (natural: number[], least: number[], available: number): number[] => {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  const widths = new Array<number | undefined>(natural.length).fill(undefined);
  let left = available;
  let open = natural.map((_, c) => c);
  for (;;) {
    const share = left / Math.max(open.length, 1);
    const fits = open.filter((c) => (natural[c] ?? 0) <= share);
    if (fits.length === 0) break;
    for (const c of fits) {
      widths[c] = natural[c] ?? 0;
      left -= natural[c] ?? 0;
    }
    open = open.filter((c) => !fits.includes(c));
  }
  const wanted = open.reduce((sum, c) => sum + (natural[c] ?? 0), 0);
  for (const c of open) widths[c] = (left * (natural[c] ?? 0)) / wanted;
  // A column below its longest word takes it from the widest ones.
  const even = available / natural.length;
  for (const c of open) {
    const floor = Math.min(least[c] ?? 0, even);
    const short = floor - (widths[c] ?? 0);
    if (short <= 0) continue;
    const donors = open.filter(
      (d) => d !== c && (widths[d] ?? 0) - short > Math.min(least[d] ?? 0, even),
    );
    const donor = donors.sort((a, b) => (widths[b] ?? 0) - (widths[a] ?? 0))[0];
    if (donor === undefined) continue;
    widths[c] = floor;
    widths[donor] = (widths[donor] ?? 0) - short;
  }
  return widths.map((width) => width ?? 0);
};

/** The image slot at a height it was given: narrower in proportion, still centred. */
export const fitImage = (slot: ImageSlot, height: number): ImageSlot => {
  if (height >= slot.height) return slot;
  const width = (slot.width * height) / slot.height;
  return { ...slot, x: slot.x + (slot.width - width) / 2, width, height };
};
