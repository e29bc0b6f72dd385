import type { NoteGraph } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { layoutGraph, nodeRadius } from './layout';
import { tagGraph } from './sampleGraph';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A ring of linked notes with a few loose ones: enough for the forces to matter. */
const graph = (): Pick<NoteGraph, 'nodes' | 'edges'> => ({
  nodes: Array.from({ length: 30 }, (_, i) => ({
    id: id(i),
    title: `Note ${i}`,
    tags: [],
    isPinned: i === 0,
    degree: i < 20 ? 2 : 0,
  })),
  edges: Array.from({ length: 20 }, (_, i) => ({
    source: id(i),
    target: id((i + 1) % 20),
    kind: i % 2 ? ('wiki' as const) : ('manual' as const),
  })),
});

describe('layoutGraph', () => {
  it('gives the same positions for the same graph', () => {
    const first = layoutGraph(graph());
    const second = layoutGraph(graph());
    expect(second).toEqual(first);
    expect(first.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
  });

  it('keeps linked notes closer than the graph is wide', () => {
    const { nodes, edges, bounds } = layoutGraph(graph());
    const longest = Math.max(...edges.map((e) => Math.hypot(e.x2 - e.x1, e.y2 - e.y1)));
    expect(longest).toBeLessThan(Math.max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY));
    const first = nodes[0];
    expect(edges[0]).toMatchObject({ source: id(0), x1: first?.x, y1: first?.y });
  });

  it('sizes notes by their links and bounds every circle', () => {
    const { nodes, bounds } = layoutGraph(graph());
    expect(nodes[0]?.r).toBe(nodeRadius(2));
    expect(nodeRadius(9)).toBeGreaterThan(nodeRadius(1));
    for (const n of nodes) {
      expect(n.x - n.r).toBeGreaterThanOrEqual(bounds.minX);
      expect(n.y + n.r).toBeLessThanOrEqual(bounds.maxY);
    }
  });

  it('drops links to notes it was not given, repeats and links of a note to itself', () => {
    const input = graph();
    input.edges.push(
      { source: id(0), target: id(99), kind: 'manual' },
      { source: id(0), target: id(1), kind: 'manual' },
      { source: id(3), target: id(3), kind: 'wiki' },
    );
    expect(layoutGraph(input).edges).toHaveLength(20);
  });

  it('lays out an empty graph', () => {
    expect(layoutGraph({ nodes: [], edges: [] })).toEqual({
      nodes: [],
      edges: [],
      clusters: [],
      bounds: { minX: 0, minY: 0, maxX: 0, maxY: 0 },
    });
  });

  it.each([50, 500])('repeats the layout of %i notes exactly', (count) => {
    const first = layoutGraph(tagGraph(count), { aspect: 2 });
    expect(layoutGraph(tagGraph(count), { aspect: 2 })).toEqual(first);
  });

  it.each([
    [50, 2],
    [500, 2],
    [50, 0.7],
    [500, 0.7],
  ])('puts the %i notes without links in a block aside (frame shape %f)', (count, aspect) => {
    const { nodes, aside } = layoutGraph(tagGraph(count), { aspect });
    const linked = nodes.filter((n) => n.linked);
    const loose = nodes.filter((n) => !n.linked);
    expect(loose.length).toBeGreaterThan(count / 10);
    const box = {
      minX: Math.min(...linked.map((n) => n.x - n.r)),
      minY: Math.min(...linked.map((n) => n.y - n.r)),
      maxX: Math.max(...linked.map((n) => n.x + n.r)),
      maxY: Math.max(...linked.map((n) => n.y + n.r)),
    };
    const inside = (n: { x: number; y: number }) =>
      n.x >= box.minX && n.x <= box.maxX && n.y >= box.minY && n.y <= box.maxY;
    expect(loose.filter(inside)).toEqual([]);
    expect(aside).toBeDefined();
    for (const n of loose) {
      expect(n.x).toBeGreaterThan(aside?.minX ?? Infinity);
      expect(n.x).toBeLessThan(aside?.maxX ?? -Infinity);
      expect(n.y).toBeGreaterThan(aside?.minY ?? Infinity);
      expect(n.y).toBeLessThan(aside?.maxY ?? -Infinity);
    }
    // The block is clear of the linked notes: at their right or below them.
    expect((aside?.minX ?? 0) > box.maxX || (aside?.minY ?? 0) > box.maxY).toBe(true);
  });

  it('keeps the notes without links in rows grouped by tag, each under its caption', () => {
    const { nodes, clusters } = layoutGraph(tagGraph(50), { aspect: 2 });
    const loose = nodes.filter((n) => !n.linked);
    for (const n of loose) {
      const caption = clusters.find((c) => c.key === n.cluster);
      expect(caption?.tag).toBe(n.tags[0]);
      expect(caption?.linked).toBe(false);
      // Under its caption in its column, or in a column after it when a tag fills more than one.
      const x = caption?.x ?? Infinity;
      const under = Math.abs(n.x - x) < 20 && n.y > (caption?.y ?? Infinity);
      expect(under || n.x > x + 20).toBe(true);
    }
    // A tag that fits in a column is not split.
    const rows = new Set(loose.map((n) => n.y)).size;
    const byTag = new Map<string, number[]>();
    for (const n of loose) byTag.set(n.cluster, [...(byTag.get(n.cluster) ?? []), n.x]);
    const split = [...byTag].filter(([, xs]) => xs.length < rows && new Set(xs).size > 1);
    expect(split).toEqual([]);
    const columns = new Set(loose.map((n) => n.x));
    expect(columns.size).toBeGreaterThan(1);
    expect(columns.size).toBeLessThan(loose.length / 2);
  });

  it.each([50, 500])(
    'sits linked notes of one tag closer together than to others (%i)',
    (count) => {
      const linked = layoutGraph(tagGraph(count), { aspect: 1.5 }).nodes.filter((n) => n.linked);
      let same = 0;
      let sameCount = 0;
      let other = 0;
      let otherCount = 0;
      for (const [i, a] of linked.entries()) {
        for (const b of linked.slice(i + 1)) {
          const d = Math.hypot(a.x - b.x, a.y - b.y);
          if (a.tags[0] === b.tags[0]) {
            same += d;
            sameCount += 1;
          } else {
            other += d;
            otherCount += 1;
          }
        }
      }
      expect(same / sameCount).toBeLessThan(0.6 * (other / otherCount));
    },
  );

  it('names each cluster of linked notes by the tag its notes share', () => {
    const { nodes, clusters } = layoutGraph(tagGraph(120), { aspect: 1.5 });
    for (const n of nodes.filter((node) => node.linked && node.tags.length === 1)) {
      expect(clusters.find((c) => c.key === n.cluster)?.tag).toBe(n.tags[0]);
    }
  });
});
