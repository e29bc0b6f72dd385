import type { NoteGraph, NoteGraphNode, NoteLinkKind } from '@noted/api';
import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';

export interface PlacedNode extends NoteGraphNode {
  x: number;
  y: number;
  /** Radius of the circle, larger for notes with more links. */
  r: number;
}

export interface PlacedEdge {
  source: string;
  target: string;
  kind: NoteLinkKind;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** The box around every circle and its label. */
  bounds: Bounds;
}

/**
 * Simulation steps; the cooling is set so alpha goes from 1 to d3's alphaMin (0.001) in that
 * many. 200 rather than d3's 300 keeps 500 notes well under a second on a slow machine.
 */
export const LAYOUT_TICKS = 200;

/** Room a label takes under its circle: half its width at most, and its height. */
const LABEL_HALF_WIDTH = 60;
const LABEL_HEIGHT = 18;

export const nodeRadius = (degree: number): number =>
  Math.min(24, 6 + 3 * Math.sqrt(Math.max(0, degree)));

type SimNode = SimulationNodeDatum & { id: string; r: number };

/** A fixed-seed generator for d3's jiggle of coinciding nodes, so layouts repeat exactly. */
const seededRandom = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
};

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/**
 * Places the notes of a graph with a force simulation run a fixed number of steps. Pure: the
 * same graph gives the same positions (starting points come from each node's index).
 */
export function layoutGraph(
  graph: Pick<NoteGraph, 'nodes' | 'edges'>,
  ticks: number = LAYOUT_TICKS,
): GraphLayout {
  const simNodes: SimNode[] = graph.nodes.map((node, index) => {
    const distance = 12 * Math.sqrt(0.5 + index);
    const angle = index * GOLDEN_ANGLE;
    return {
      id: node.id,
      r: nodeRadius(node.degree),
      x: distance * Math.cos(angle),
      y: distance * Math.sin(angle),
    };
  });
  const known = new Set(simNodes.map((node) => node.id));
  const seen = new Set<string>();
  const edges = graph.edges.filter((edge) => {
    const key = `${edge.source}>${edge.target}>${edge.kind}`;
    if (seen.has(key) || edge.source === edge.target) return false;
    seen.add(key);
    return known.has(edge.source) && known.has(edge.target);
  });
  const simLinks: SimulationLinkDatum<SimNode>[] = edges.map((edge) => ({
    source: edge.source,
    target: edge.target,
  }));

  const simulation = forceSimulation(simNodes)
    .randomSource(seededRandom(0x6e6f7465))
    .alphaDecay(1 - Math.pow(0.001, 1 / Math.max(1, ticks)))
    .force(
      'link',
      forceLink<SimNode, SimulationLinkDatum<SimNode>>(simLinks)
        .id((node) => node.id)
        .distance(70),
    )
    .force('charge', forceManyBody<SimNode>().strength(-160).distanceMax(500))
    .force('x', forceX<SimNode>(0).strength(0.06))
    .force('y', forceY<SimNode>(0).strength(0.06))
    .force(
      'collide',
      forceCollide<SimNode>((node) => node.r + 10),
    )
    .stop();
  simulation.tick(ticks);

  const position = new Map(simNodes.map((node) => [node.id, node]));
  const nodes: PlacedNode[] = graph.nodes.map((node) => {
    const placed = position.get(node.id);
    return { ...node, x: placed?.x ?? 0, y: placed?.y ?? 0, r: placed?.r ?? nodeRadius(0) };
  });

  const bounds: Bounds = nodes.length
    ? {
        minX: Math.min(...nodes.map((n) => n.x - Math.max(n.r, LABEL_HALF_WIDTH))),
        minY: Math.min(...nodes.map((n) => n.y - n.r)),
        maxX: Math.max(...nodes.map((n) => n.x + Math.max(n.r, LABEL_HALF_WIDTH))),
        maxY: Math.max(...nodes.map((n) => n.y + n.r + LABEL_HEIGHT)),
      }
    : { minX: 0, minY: 0, maxX: 0, maxY: 0 };

  return {
    nodes,
    edges: edges.map((edge) => {
      const from = position.get(edge.source);
      const to = position.get(edge.target);
      return {
        ...edge,
        x1: from?.x ?? 0,
        y1: from?.y ?? 0,
        x2: to?.x ?? 0,
        y2: to?.y ?? 0,
      };
    }),
    bounds,
  };
}
