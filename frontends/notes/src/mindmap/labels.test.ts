import { describe, expect, it } from 'vitest';
import {
  fitView,
  placeLabels,
  shortLabel,
  type Box,
  type LabelOptions,
  type PlacedLabel,
} from './labels';
import { layoutGraph, type GraphLayout } from './layout';
import { tagGraph } from './sampleGraph';

const desktop = { width: 975, height: 448 };
const phone = { width: 356, height: 523 };

const caption: LabelOptions['captionOf'] = (cluster) =>
  !cluster ? 'Not linked' : cluster.tag === undefined ? 'No tag' : `#${cluster.tag}`;

const setUp = (count: number, size: { width: number; height: number }) => {
  const layout = layoutGraph(tagGraph(count), { aspect: size.width / size.height });
  const view = fitView(layout.bounds, size, 32, 1.5);
  return { layout, view, size };
};

const place = (
  { layout, view, size }: { layout: GraphLayout; view: LabelOptions['view']; size: typeof desktop },
  more: Partial<LabelOptions> = {},
) =>
  placeLabels(layout, {
    view,
    size,
    textOf: (node) => shortLabel(node.title),
    captionOf: caption,
    ...more,
  });

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const overlapping = (labels: PlacedLabel[]) =>
  labels.flatMap((a, i) =>
    labels.slice(i + 1).flatMap((b) => (overlap(a.box, b.box) ? [`${a.text} × ${b.text}`] : [])),
  );

describe('placeLabels', () => {
  it.each([
    [50, 'desktop', desktop],
    [500, 'desktop', desktop],
    [50, 'phone', phone],
    [500, 'phone', phone],
  ])('shows labels of %i notes on a %s that overlap nothing', (count, _, size) => {
    const labels = place(setUp(count, size));
    expect(overlapping(labels)).toEqual([]);
    for (const { box } of labels) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
    }
    const notes = labels.filter((label) => label.kind === 'note');
    expect(notes.length).toBeGreaterThanOrEqual(count === 50 && size === desktop ? 15 : 2);
    expect(labels.some((label) => label.kind === 'cluster')).toBe(true);
    expect(labels.filter((label) => label.kind === 'aside').map((l) => l.text)).toEqual([
      'Not linked',
    ]);
  });

  it('shows the labels of the notes with the most links first', () => {
    const setup = setUp(500, desktop);
    const shown = new Set(place(setup).flatMap((label) => label.id ?? []));
    const linked = setup.layout.nodes.filter((node) => node.linked);
    const degree = (nodes: typeof linked) =>
      nodes.reduce((sum, node) => sum + node.degree, 0) / nodes.length;
    expect(degree(linked.filter((n) => shown.has(n.id)))).toBeGreaterThan(degree(linked));
  });

  it('shows more labels as the map is zoomed in, none overlapping', () => {
    const setup = setUp(500, desktop);
    const fitted = place(setup).filter((label) => label.kind === 'note');
    const { view } = setup;
    const centre = { x: desktop.width / 2, y: desktop.height / 2 };
    const k = view.k * 3;
    const zoomed = {
      ...setup,
      view: { k, x: centre.x - (centre.x - view.x) * 3, y: centre.y - (centre.y - view.y) * 3 },
    };
    const closer = place(zoomed);
    expect(overlapping(closer)).toEqual([]);
    // The notes in the middle third of the frame, labelled before and after.
    const middle = (x: number, y: number, v: typeof view) => {
      const sx = x * v.k + v.x;
      const sy = y * v.k + v.y;
      return sx > 0 && sx < desktop.width && sy > 0 && sy < desktop.height;
    };
    const inMiddle = setup.layout.nodes.filter((n) => middle(n.x, n.y, zoomed.view));
    const ids = new Set(inMiddle.map((n) => n.id));
    const before = fitted.filter((label) => label.id && ids.has(label.id)).length;
    const after = closer.filter((label) => label.id && ids.has(label.id)).length;
    expect(after).toBeGreaterThan(before * 2);
  });

  it('always labels the note in focus, then its neighbours', () => {
    const setup = setUp(500, phone);
    const quiet = setup.layout.nodes.find(
      (node) => node.linked && !place(setup).some((label) => label.id === node.id),
    );
    expect(quiet).toBeDefined();
    const active = quiet?.id ?? '';
    const labels = place(setup, { active, related: new Set([active]) });
    expect(labels.some((label) => label.id === active)).toBe(true);
    expect(overlapping(labels)).toEqual([]);
  });

  it('labels only the notes a search found', () => {
    const setup = setUp(50, desktop);
    const matched = new Set(
      setup.layout.nodes.filter((n) => n.title.includes('idea')).map((n) => n.id),
    );
    const notes = place(setup, { matched }).filter((label) => label.kind === 'note');
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((label) => matched.has(label.id ?? ''))).toBe(true);
  });

  it('keeps labels off the controls over the canvas', () => {
    const setup = setUp(50, desktop);
    const zoom = { x: desktop.width - 60, y: 0, width: 60, height: desktop.height };
    const labels = place(setup, { reserved: [zoom] });
    expect(labels.filter((label) => overlap(label.box, zoom))).toEqual([]);
  });

  it('cuts the labels of notes without links to their column', () => {
    const setup = setUp(50, desktop);
    const loose = new Set(setup.layout.nodes.filter((n) => !n.linked).map((n) => n.id));
    const labels = place(setup).filter((label) => loose.has(label.id ?? ''));
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.some((label) => label.text.endsWith('…'))).toBe(true);
    expect(labels.every((label) => label.anchor === 'start')).toBe(true);
  });
});
