import PDFDocument from 'pdfkit';
import type { ExportImage, ExportNote } from '../model.js';
import { FONT_FEATURES, FONT_KEYS, loadFontData, openFonts } from './fonts.js';
import { bandRects, fitImage, Flow, type Item, type Op, type Placed } from './flow.js';
import { prepareImages, type PreparedImage } from './images.js';
import { labelsFor, noteDates } from './labels.js';
import { liveLink } from './link.js';
import { markdownBlocks } from './markdown.js';
import { PRINT } from './theme.js';
import { Typesetter } from './typeset.js';

export interface PdfOptions {
  /** The language of the labels and dates (`en`, `zh-CN`); by default the note's own. */
  locale?: string;
  /** When the document was made (its metadata); now by default. */
  now?: Date;
  /** The time zone the dates are shown in; UTC by default. */
  timeZone?: string;
}

/** A4 in points, and the page's frame. */
export const PAGE = { width: 595.28, height: 841.89, left: 64, right: 64, top: 62, bottom: 74 };
const BODY_SIZE = 10.5;
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const BODY_HEIGHT = PAGE.height - PAGE.top - PAGE.bottom;
/** Images are embedded at up to this many pixels across (about 250 dpi over the text's width). */
const IMAGE_PIXELS = 1600;

const outer = (item: Item | undefined): number => (item ? item.space + item.height : 0);

/**
 * Items on pages `bodyHeight` high: a heading stays with the lines after it, a paragraph
 * leaves neither its first nor its last line alone, an image shrinks (to about half) to finish
 * a page or moves to the next, a table row starting a page has the header row above it.
 */
export const paginate = (items: readonly Item[], bodyHeight: number): Placed[][] => {
  const pages: Placed[][] = [[]];
  let y = 0;
  items.forEach((item, i) => {
    let page = pages[pages.length - 1] ?? [];
    let space = page.length > 0 ? item.space : 0;
    let extra = 0;
    for (let k = 1; k <= (item.keep ?? 0); k++) extra += outer(items[i + k]);
    if (item.line) {
      // Two lines at least on each side of a break: a paragraph of three lines moves whole.
      const { index, count } = item.line;
      const after = (k: number) =>
        items.slice(i + 1, i + 1 + k).reduce((sum, next) => sum + next.height, 0);
      if (index === 0 && count > 1) extra = Math.max(extra, after(count <= 3 ? count - 1 : 1));
      if (count >= 4 && index === count - 2) extra = Math.max(extra, after(1));
    }
    let height = item.height;
    const room = bodyHeight - y - space;
    if (item.image && height > room && page.length > 0 && room >= item.image.minHeight)
      height = room;
    const total = height + extra;
    if (page.length > 0 && total > room && (total <= bodyHeight || height > room)) {
      page = [];
      pages.push(page);
      y = 0;
      space = 0;
      if (item.header) {
        page.push({ item: item.header, y: 0, height: item.header.height });
        y = item.header.height;
      }
    }
    if (item.image) height = Math.min(height, bodyHeight - y - space);
    const placed: Placed = { item, y: y + space, height };
    if (item.image) placed.image = fitImage(item.image, height);
    page.push(placed);
    y += space + height;
  });
  return pages.filter((page) => page.length > 0);
};

type Doc = InstanceType<typeof PDFDocument>;

/** pdfkit's `openImage`, missing from @types/pdfkit: an image embedded once, drawn often. */
interface OpenedImage {
  width: number;
  height: number;
}
type ImageDoc = Doc & {
  openImage(src: Buffer): OpenedImage;
  image(src: OpenedImage, x: number, y: number, options: { width: number; height: number }): Doc;
};

const drawOp = (doc: Doc, op: Op, dx: number, dy: number): void => {
  switch (op.kind) {
    case 'text':
      doc
        .font(op.font)
        .fontSize(op.size)
        .fillColor(op.color)
        .text(op.text, dx + op.x, dy + op.y, {
          lineBreak: false,
          baseline: 'alphabetic',
          ...(op.italic ? { oblique: 12 } : {}),
          // pdfkit hands the features to fontkit, which takes a map as well as a list.
          ...(FONT_FEATURES[op.font] ? { features: FONT_FEATURES[op.font] as unknown as [] } : {}),
        });
      return;
    case 'rect': {
      if (op.radius) doc.roundedRect(dx + op.x, dy + op.y, op.width, op.height, op.radius);
      else doc.rect(dx + op.x, dy + op.y, op.width, op.height);
      if (op.fill) doc.fillColor(op.fill).fill();
      else
        doc
          .lineWidth(op.lineWidth ?? 1)
          .strokeColor(op.stroke ?? '#000000')
          .stroke();
      return;
    }
    case 'line':
      doc
        .moveTo(dx + op.x1, dy + op.y1)
        .lineTo(dx + op.x2, dy + op.y2)
        .lineWidth(op.width)
        .lineCap('butt')
        .strokeColor(op.color)
        .stroke();
      return;
    case 'circle':
      doc.circle(dx + op.cx, dy + op.cy, op.r);
      if (op.fill) doc.fillColor(op.fill).fill();
      else
        doc
          .lineWidth(op.lineWidth ?? 1)
          .strokeColor(op.stroke ?? '#000000')
          .stroke();
      return;
    case 'tick': {
      const { x, y, size } = op;
      doc
        .moveTo(dx + x + size * 0.24, dy + y + size * 0.52)
        .lineTo(dx + x + size * 0.42, dy + y + size * 0.7)
        .lineTo(dx + x + size * 0.77, dy + y + size * 0.31)
        .lineWidth(op.width)
        .lineCap('round')
        .lineJoin('round')
        .strokeColor(op.color)
        .stroke();
      return;
    }
    case 'link': {
      // The Markdown reader keeps only such links; checked again where the annotation is made.
      const uri = liveLink(op.url);
      if (uri) doc.link(dx + op.x, dy + op.y, op.width, op.height, uri);
      return;
    }
  }
};

const drawBands = (doc: Doc, page: readonly Placed[]): void => {
  for (const { band, top, bottom } of bandRects(page)) {
    doc
      .roundedRect(PAGE.left + band.x, PAGE.top + top, band.width, bottom - top, band.radius)
      .fillColor(band.color)
      .fill();
  }
};

/** A title cut to fit `width`, with an ellipsis. */
const fitText = (ts: Typesetter, text: string, size: number, width: number): string => {
  if (ts.width(text, 'sans', size) <= width) return text;
  const chars = [...text];
  while (chars.length > 0 && ts.width(`${chars.join('')}…`, 'sans', size) > width) chars.pop();
  return `${chars.join('').trimEnd()}…`;
};

/**
 * The note as an A4 PDF a person would print: title, tags and dates, the Markdown set in the
 * shipped fonts (subsets embedded), images scaled to the page, "n / total" in each footer.
 */
export const renderNotePdf = async (
  note: ExportNote,
  images: readonly ExportImage[],
  options: PdfOptions = {},
): Promise<Buffer> => {
  const labels = labelsFor(note, options.locale);
  const [data, prepared] = await Promise.all([loadFontData(), prepareImages(images, IMAGE_PIXELS)]);
  const ts = new Typesetter(openFonts(data));
  const title = note.title.trim() || labels.untitled;

  const flow = new Flow(ts, {
    width: CONTENT_WIDTH,
    size: BODY_SIZE,
    palette: PRINT,
    images: prepared,
    unitsPerPixel: 0.75,
    maxImageHeight: BODY_HEIGHT * 0.7,
    missingImage: labels.missingImage,
  });
  flow.title(title);
  flow.meta(noteDates(note, labels, options.timeZone), BODY_SIZE * 0.35);
  flow.tags(note.tags, BODY_SIZE * 0.3);
  flow.rule(BODY_SIZE * 0.9, BODY_SIZE * 1.2);
  flow.body(markdownBlocks(note.body), 0);
  const pages = paginate(flow.items, BODY_HEIGHT);

  const now = options.now ?? new Date();
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margins: { top: PAGE.top, bottom: 0, left: PAGE.left, right: PAGE.right },
    autoFirstPage: false,
    lang: labels.locale,
    displayTitle: true,
    info: { Title: title, Creator: 'Noted', Producer: 'Noted', CreationDate: now, ModDate: now },
  }) as ImageDoc;
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const key of FONT_KEYS) doc.registerFont(key, data[key]);

  const embedded = new Map<string, OpenedImage>();
  const picture = (image: PreparedImage) => {
    let opened = embedded.get(image.url);
    if (!opened) {
      opened = doc.openImage(image.data);
      embedded.set(image.url, opened);
    }
    return opened;
  };

  const footerSize = 8;
  const footerTitle = fitText(ts, title, footerSize, CONTENT_WIDTH * 0.7);
  pages.forEach((page, number) => {
    doc.addPage();
    drawBands(doc, page);
    page.forEach((placed) => {
      const dy = PAGE.top + placed.y;
      if (placed.image) {
        const image = prepared.get(placed.image.url);
        if (image) {
          const slot = placed.image;
          doc.image(picture(image), PAGE.left + slot.x, dy, {
            width: slot.width,
            height: slot.height,
          });
        }
      }
      for (const op of placed.item.ops) drawOp(doc, op, PAGE.left, dy);
    });
    const baseline = PAGE.height - PAGE.bottom / 2;
    const pageLabel = `${number + 1} / ${pages.length}`;
    doc.font('sans').fontSize(footerSize).fillColor(PRINT.subtle);
    doc.text(footerTitle, PAGE.left, baseline, { lineBreak: false, baseline: 'alphabetic' });
    const labelWidth = ts.width(pageLabel, 'sans', footerSize);
    doc.text(pageLabel, PAGE.width - PAGE.right - labelWidth, baseline, {
      lineBreak: false,
      baseline: 'alphabetic',
    });
  });
  doc.end();
  return done;
};
