import {
  ASIDE_COLUMN,
  type Bounds,
  type Cluster,
  type GraphLayout,
  type PlacedNode,
} from './layout';

/** Where the map is: screen = world × k + (x, y). */
export interface View {
  x: number;
  y: number;
  k: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type LabelKind = 'note' | 'cluster' | 'aside';

/** A label drawn in screen space: its text starts, centres or ends at (x, y), the baseline's middle. */
export interface PlacedLabel {
  key: string;
  kind: LabelKind;
  /** The note's id, for a note's label. */
  id?: string;
  text: string;
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  /** The box the label's background fills, which no other label overlaps. */
  box: Box;
}

/** How wide a text is in CSS pixels, in the label font (captions are bolder). */
export type Measure = (text: string, kind: LabelKind) => number;

export interface LabelOptions {
  view: View;
  size: Size;
  /** The text of a note's label. */
  textOf: (node: PlacedNode) => string;
  /** The caption of a cluster, and of the block of notes without links. */
  captionOf: (cluster: Cluster | undefined) => string;
  measure?: Measure;
  /** The note hovered or in focus: its label is placed first, then its neighbours'. */
  active?: string;
  related?: ReadonlySet<string>;
  /** The notes a search found; when given, other notes get no label. */
  matched?: ReadonlySet<string>;
  /** Parts of the frame covered by controls, where no label goes. */
  reserved?: Box[];
}

export const LABEL_FONT_SIZE = 12;
/** Longer titles are cut to this many characters in their label. */
const LABEL_MAX = 24;

export const shortLabel = (title: string) =>
  title.length > LABEL_MAX ? `${title.slice(0, LABEL_MAX - 1).trimEnd()}…` : title;

export const LABEL_HEIGHT = 16;
const PAD_X = 4;
/** Pixels kept between two labels, and between a label and a circle or the frame's edge. */
const GAP = 2;
/** Circles are never drawn smaller than this on screen, however far the map is zoomed out. */
export const MIN_SCREEN_RADIUS = 2.5;

const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const NARROW = /[ilj.,:;|!'`()[\]{}\s]/;
const SLIM = /[frtI1-]/;

/** A close estimate of a text's width in the UI font, where no canvas can measure it. */
export const estimateWidth: Measure = (text, kind) => {
  let ems = 0;
  for (const char of text) {
    if (WIDE.test(char)) ems += 1;
    else if (NARROW.test(char)) ems += 0.28;
    else if (SLIM.test(char)) ems += 0.38;
    else if (/[mwMW@]/.test(char)) ems += 0.86;
    else if (/[A-Z]/.test(char)) ems += 0.68;
    else ems += 0.57;
  }
  return ems * LABEL_FONT_SIZE * (kind === 'note' ? 1 : 1.04);
};

export const screenRadius = (r: number, k: number) => Math.max(MIN_SCREEN_RADIUS, r * k);

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width + GAP &&
  b.x < a.x + a.width + GAP &&
  a.y < b.y + b.height + GAP &&
  b.y < a.y + a.height + GAP;

/** Boxes kept in a grid of cells, so a test looks only at the boxes near it. */
class BoxGrid {
  private cells = new Map<number, Box[]>();
  private readonly cell = 64;

  private keys(box: Box): number[] {
    const keys: number[] = [];
    const x0 = Math.floor((box.x - GAP) / this.cell);
    const x1 = Math.floor((box.x + box.width + GAP) / this.cell);
    const y0 = Math.floor((box.y - GAP) / this.cell);
    const y1 = Math.floor((box.y + box.height + GAP) / this.cell);
    for (let x = x0; x <= x1; x += 1) for (let y = y0; y <= y1; y += 1) keys.push(x * 65_536 + y);
    return keys;
  }

  add(box: Box) {
    for (const key of this.keys(box)) {
      const boxes = this.cells.get(key);
      if (boxes) boxes.push(box);
      else this.cells.set(key, [box]);
    }
  }

  hits(box: Box, except?: Box): boolean {
    for (const key of this.keys(box)) {
      for (const other of this.cells.get(key) ?? []) {
        if (other !== except && overlaps(box, other)) return true;
      }
    }
    return false;
  }
}

type Side = 'below' | 'above' | 'right' | 'left' | 'at';

/** A place a label may go: beside a point on screen, or a circle of radius sr around it. */
interface Spot {
  side: Side;
  sx: number;
  sy: number;
  sr: number;
}

interface Candidate {
  key: string;
  kind: LabelKind;
  id?: string;
  text: string;
  spots: Spot[];
  /** Whether the label stays out of the block aside (those of linked notes do). */
  outside?: boolean;
  /** The widest the label may be (in the block aside, a column's width); longer text is cut. */
  maxWidth?: number;
  rank: number;
  order: number;
}

const NOTE_SIDES: readonly Side[] = ['below', 'above', 'right', 'left'];
/** A label cut shorter than this many characters says too little to be shown. */
const MIN_CHARS = 6;
/** A cluster of fewer notes than this has its caption shown after the labels of linked notes. */
const SMALL_CLUSTER = 4;
/** A cluster of at least this many notes has its caption in its middle rather than above it. */
const LARGE_CLUSTER = 12;

/** The longest start of `text` that, with an ellipsis, is at most `width` wide. */
const cut = (text: string, width: number, kind: LabelKind, measure: Measure) => {
  if (measure(text, kind) <= width) return text;
  const chars = [...text];
  let low = 0;
  let high = chars.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(`${chars.slice(0, mid).join('').trimEnd()}…`, kind) <= width) low = mid;
    else high = mid - 1;
  }
  return low >= Math.min(MIN_CHARS, chars.length)
    ? `${chars.slice(0, low).join('').trimEnd()}…`
    : undefined;
};

/**
 * Chooses the labels to show at a view, in screen space: the most important first (the note in
 * focus, its neighbours, what a search found, cluster captions, pinned notes, then the notes
 * with the most links), each beside its circle where it overlaps no label, circle or control
 * placed before it and fits in the frame; the others are left out. Greedy, so it is fast
 * enough to run again at every zoom step.
 */
export function placeLabels(layout: GraphLayout, options: LabelOptions): PlacedLabel[] {
  const { view, size, measure = estimateWidth, active, related, matched } = options;
  const { k } = view;
  const toScreen = (x: number, y: number) => ({ x: x * k + view.x, y: y * k + view.y });
  const margin = 40;
  const visible = (point: { x: number; y: number }) =>
    point.x > -margin &&
    point.y > -margin &&
    point.x < size.width + margin &&
    point.y < size.height + margin;

  const candidates: Candidate[] = [];
  const circles = new BoxGrid();
  const circleOf = new Map<string, Box>();
  layout.nodes.forEach((node, order) => {
    const at = toScreen(node.x, node.y);
    if (!visible(at)) return;
    const sr = screenRadius(node.r, k);
    const circle = { x: at.x - sr, y: at.y - sr, width: 2 * sr, height: 2 * sr };
    circles.add(circle);
    circleOf.set(node.id, circle);
    if (matched && !matched.has(node.id) && node.id !== active) return;
    let rank: number;
    if (node.id === active) rank = 0;
    else if (related?.has(node.id)) rank = 2;
    else if (matched) rank = 3;
    else if (node.isPinned) rank = 5;
    else if (node.linked) rank = 6;
    else rank = 7;
    candidates.push({
      key: node.id,
      kind: 'note',
      id: node.id,
      text: options.textOf(node),
      spots: (node.linked ? NOTE_SIDES : (['right'] as const)).map((side) => ({
        side,
        sx: at.x,
        sy: at.y,
        sr,
      })),
      // In the block aside, a label has its column's width, less its circle.
      ...(node.linked ? { outside: true } : { maxWidth: ASIDE_COLUMN * k - 2 * sr - 4 * GAP }),
      // Among equals, more links first, then the order the graph came in.
      rank: rank * 1_000 - Math.min(999, node.degree),
      order,
    });
  });
  layout.clusters.forEach((cluster, order) => {
    const top = toScreen(cluster.x, cluster.y);
    const above: Spot = { side: cluster.linked ? 'above' : 'right', sx: top.x, sy: top.y, sr: 0 };
    const middle = cluster.centre ? toScreen(cluster.centre.x, cluster.centre.y) : undefined;
    const inside: Spot | undefined = middle && { side: 'at', sx: middle.x, sy: middle.y, sr: 0 };
    const spots = !inside
      ? [above]
      : cluster.size >= LARGE_CLUSTER
        ? [inside, above]
        : [above, inside];
    if (!spots.some((spot) => visible({ x: spot.sx, y: spot.sy }))) return;
    candidates.push({
      key: `cluster:${cluster.key}`,
      kind: 'cluster',
      text: options.captionOf(cluster),
      spots,
      ...(cluster.linked ? {} : { maxWidth: ASIDE_COLUMN * k - 2 * GAP }),
      // A large cluster's name says more than one note's title; a small one's, less.
      rank:
        (!cluster.linked ? 6_900 : cluster.size >= SMALL_CLUSTER ? 4_000 : 6_500) -
        Math.min(99, cluster.size),
      order,
    });
  });
  if (layout.aside && layout.nodes.some((node) => node.linked)) {
    const at = toScreen(layout.aside.minX, layout.aside.minY);
    candidates.push({
      key: 'aside',
      kind: 'aside',
      text: options.captionOf(undefined),
      spots: [{ side: 'right', sx: at.x, sy: at.y + LABEL_HEIGHT / 2 + 4, sr: 0 }],
      rank: 1_000,
      order: 0,
    });
  }
  candidates.sort((a, b) => a.rank - b.rank || a.order - b.order);

  // Labels and the circles of labelled notes are never covered; other circles only where a
  // label has no free place, as where notes are dense (their labels then stay hidden).
  const aside = layout.aside && {
    x: layout.aside.minX * k + view.x,
    y: layout.aside.minY * k + view.y,
    width: (layout.aside.maxX - layout.aside.minX) * k,
    height: (layout.aside.maxY - layout.aside.minY) * k,
  };
  const taken = new BoxGrid();
  for (const box of options.reserved ?? []) taken.add(box);
  const placed: PlacedLabel[] = [];
  const inFrame = (box: Box) =>
    box.x >= GAP &&
    box.y >= GAP &&
    box.x + box.width <= size.width - GAP &&
    box.y + box.height <= size.height - GAP;
  for (const candidate of candidates) {
    const own = candidate.id === undefined ? undefined : circleOf.get(candidate.id);
    if (own && taken.hits(own)) continue;
    const text =
      candidate.maxWidth === undefined
        ? candidate.text
        : cut(candidate.text, candidate.maxWidth - 2 * PAD_X, candidate.kind, measure);
    if (text === undefined) continue;
    const width = Math.ceil(measure(text, candidate.kind)) + 2 * PAD_X;
    const fits = candidate.spots
      .map((spot) => besideCircle(spot, width))
      .filter(
        ({ box }) =>
          inFrame(box) && !taken.hits(box) && !(candidate.outside && aside && overlaps(box, aside)),
      );
    const label =
      candidate.kind === 'note'
        ? (fits.find(({ box }) => !circles.hits(box, own)) ?? fits[0])
        : fits[0];
    if (!label) continue;
    taken.add(label.box);
    if (own) taken.add(own);
    placed.push({
      key: candidate.key,
      kind: candidate.kind,
      ...(candidate.id === undefined ? {} : { id: candidate.id }),
      text,
      ...label,
    });
  }
  return placed;
}

function besideCircle({ side, sx, sy, sr }: Spot, width: number) {
  const height = LABEL_HEIGHT;
  const away = sr + GAP;
  switch (side) {
    case 'below':
      return {
        x: sx,
        y: sy + away + height / 2,
        anchor: 'middle' as const,
        box: { x: sx - width / 2, y: sy + away, width, height },
      };
    case 'above':
      return {
        x: sx,
        y: sy - away - height / 2,
        anchor: 'middle' as const,
        box: { x: sx - width / 2, y: sy - away - height, width, height },
      };
    case 'right':
      return {
        x: sx + away + PAD_X,
        y: sy,
        anchor: 'start' as const,
        box: { x: sx + away, y: sy - height / 2, width, height },
      };
    case 'left':
      return {
        x: sx - away - PAD_X,
        y: sy,
        anchor: 'end' as const,
        box: { x: sx - away - width, y: sy - height / 2, width, height },
      };
    case 'at':
      return {
        x: sx,
        y: sy,
        anchor: 'middle' as const,
        box: { x: sx - width / 2, y: sy - height / 2, width, height },
      };
  }
}

/** The view that shows the whole box in a frame, with `padding` around it. */
export const fitView = (bounds: Bounds, size: Size, padding: number, maxScale: number): View => {
  const width = Math.max(1, bounds.maxX - bounds.minX);
  const height = Math.max(1, bounds.maxY - bounds.minY);
  const k = Math.min(
    (size.width - 2 * padding) / width,
    (size.height - 2 * padding) / height,
    maxScale,
  );
  return {
    k,
    x: size.width / 2 - (k * (bounds.minX + bounds.maxX)) / 2,
    y: size.height / 2 - (k * (bounds.minY + bounds.maxY)) / 2,
  };
};
