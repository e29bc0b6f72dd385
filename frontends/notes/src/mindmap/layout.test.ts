import type { NoteGraph } from '@noted/api';
import { describe, expect, it } from 'vitest';
import { layoutGraph, nodeRadius } from './layout';

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
      bounds: { minX: 0, minY: 0, maxX: 0, maxY: 0 },
    });
  });
});
