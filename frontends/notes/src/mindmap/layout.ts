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
  /** The cluster the note sits in (a key of `GraphLayout.clusters`). */
  cluster: string;
  /** Whether the note has a link on the map; the others sit in a block aside. */
  linked: boolean;
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

/** A group of notes that sit together: linked notes by their main tag (or their links), unlinked ones by tag. */
export interface Cluster {
  key: string;
  /** The tag the notes share; none for a group of untagged notes. */
  tag?: string;
  linked: boolean;
  size: number;
  /** Where its caption goes: centred above the group, or at the start of its row aside. */
  x: number;
  y: number;
  /** The middle of a linked group, where the caption of a large one goes. */
  centre?: { x: number; y: number };
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  clusters: Cluster[];
  /** The block of notes without links, beside the linked ones; undefined when there is none. */
  aside?: Bounds;
  /** The box around every circle and its label. */
  bounds: Bounds;
}

export interface LayoutOptions {
  /** Width over height of the frame the map is drawn in: the map is given about that shape. */
  aspect?: number;
  ticks?: number;
}

/**
 * Simulation steps; the cooling is set so alpha goes from 1 to d3's alphaMin (0.001) in that
 * many. Notes start near their cluster's centre, so fewer than d3's 300 settle them.
 */
export const LAYOUT_TICKS = 120;

/** Room a label takes under its circle: half its width at most, and its height. */
const LABEL_HALF_WIDTH = 60;
const LABEL_HEIGHT = 18;

/** Room one linked note takes in its cluster, its label included, at the fitted scale. */
const NOTE_ROOM = 46;
/** The block aside: one note a row, its label after it; columns of ASIDE_COLUMN. */
const ASIDE_ROW = 28;
export const ASIDE_COLUMN = 176;
/** Space between the linked notes and the block aside. */
const ASIDE_GAP = 96;

export const nodeRadius = (degree: number): number =>
  Math.min(24, 6 + 3 * Math.sqrt(Math.max(0, degree)));

type SimNode = SimulationNodeDatum & { id: string; r: number; cx: number; cy: number };
type Group = SimulationNodeDatum & { key: string; size: number; radius: number };

/** A fixed-seed generator for d3's jiggle of coinciding nodes, so layouts repeat exactly. */
const seededRandom = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
};

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** The i-th point of a sunflower spiral: evenly spread points in a disc, in a fixed order. */
const spiral = (index: number, step: number) => {
  const distance = step * Math.sqrt(0.5 + index);
  const angle = index * GOLDEN_ANGLE;
  return { x: distance * Math.cos(angle), y: distance * Math.sin(angle) };
};

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The key most counted, the first by name among equals. */
const mostCounted = (counts: Map<string, number>): string | undefined => {
  let best: string | undefined;
  let bestCount = 0;
  for (const [key, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && byName(key, best) < 0)) {
      best = key;
      bestCount = count;
    }
  }
  return best;
};

const count = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

/** Runs a stopped simulation with the cooling spread over `ticks` steps. */
const settle = <N extends SimulationNodeDatum>(
  simulation: ReturnType<typeof forceSimulation<N>>,
  ticks: number,
) => {
  simulation
    .randomSource(seededRandom(0x6e6f7465))
    .alphaDecay(1 - Math.pow(0.001, 1 / Math.max(1, ticks)))
    .stop()
    .tick(ticks);
};

/**
 * Places the notes of a graph. Linked notes gather by their main tag (the tag they share most
 * with the notes they link to), each tag's cluster around a centre of its own, the centres
 * placed by a small simulation in which clusters with links between them attract; then a
 * force simulation places each note near its centre, pulled by its links. Notes without a
 * link sit in a tidy block beside them, in columns grouped by tag. Pure: the same graph gives
 * the same positions.
 */
export function layoutGraph(
  graph: Pick<NoteGraph, 'nodes' | 'edges'>,
  { aspect = 1.6, ticks = LAYOUT_TICKS }: LayoutOptions = {},
): GraphLayout {
  const known = new Set(graph.nodes.map((node) => node.id));
  const seen = new Set<string>();
  const edges = graph.edges.filter((edge) => {
    const key = `${edge.source}>${edge.target}>${edge.kind}`;
    if (seen.has(key) || edge.source === edge.target) return false;
    seen.add(key);
    return known.has(edge.source) && known.has(edge.target);
  });

  const neighbours = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const list = neighbours.get(from);
    if (list) list.push(to);
    else neighbours.set(from, [to]);
  };
  for (const { source, target } of edges) {
    add(source, target);
    add(target, source);
  }
  const tagCounts = new Map<string, number>();
  for (const node of graph.nodes) for (const tag of new Set(node.tags)) count(tagCounts, tag);
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));

  /** The tag most shared with its neighbours, then the most used, then the first by name. */
  const mainTag = (node: NoteGraphNode): string | undefined => {
    if (node.tags.length === 0) return undefined;
    const shared = new Map<string, number>();
    for (const other of neighbours.get(node.id) ?? []) {
      for (const tag of byId.get(other)?.tags ?? []) count(shared, tag);
    }
    return [...new Set(node.tags)].sort(
      (a, b) =>
        (shared.get(b) ?? 0) - (shared.get(a) ?? 0) ||
        (tagCounts.get(b) ?? 0) - (tagCounts.get(a) ?? 0) ||
        byName(a, b),
    )[0];
  };

  // Connected components, so untagged linked notes join the cluster of what they link to.
  const parent = new Map<string, string>();
  const root = (id: string): string => {
    let at = id;
    while ((parent.get(at) ?? at) !== at) at = parent.get(at) ?? at;
    parent.set(id, at);
    return at;
  };
  for (const id of neighbours.keys()) parent.set(id, id);
  for (const { source, target } of edges) parent.set(root(source), root(target));

  const tagOf = new Map(graph.nodes.map((node) => [node.id, mainTag(node)]));
  const componentTags = new Map<string, Map<string, number>>();
  for (const id of neighbours.keys()) {
    const tag = tagOf.get(id);
    if (tag === undefined) continue;
    const tags = componentTags.get(root(id)) ?? new Map<string, number>();
    componentTags.set(root(id), count(tags, tag));
  }
  const clusterOf = new Map<string, string>();
  for (const node of graph.nodes) {
    if (neighbours.has(node.id)) {
      const tag = tagOf.get(node.id) ?? mostCounted(componentTags.get(root(node.id)) ?? new Map());
      clusterOf.set(node.id, tag === undefined ? `~${root(node.id)}` : `#${tag}`);
    } else {
      const tag = tagOf.get(node.id);
      clusterOf.set(node.id, tag === undefined ? '-' : `-#${tag}`);
    }
  }

  const linkedNodes = graph.nodes.filter((node) => neighbours.has(node.id));
  const looseNodes = graph.nodes.filter((node) => !neighbours.has(node.id));
  const position = new Map<string, { x: number; y: number; r: number }>();
  const clusters: Cluster[] = [];

  if (linkedNodes.length > 0) {
    const sizes = new Map<string, number>();
    for (const node of linkedNodes) count(sizes, clusterOf.get(node.id) ?? '');
    const groups: Group[] = [...sizes]
      .sort(([a, sizeA], [b, sizeB]) => sizeB - sizeA || byName(a, b))
      .map(([key, size], index) => ({
        key,
        size,
        radius: NOTE_ROOM * Math.sqrt(size / Math.PI) + NOTE_ROOM / 2,
        ...spiral(index, 3 * NOTE_ROOM),
      }));
    const between = new Map<string, number>();
    for (const { source, target } of edges) {
      const a = clusterOf.get(source) ?? '';
      const b = clusterOf.get(target) ?? '';
      if (a !== b) count(between, a < b ? `${a}\n${b}` : `${b}\n${a}`);
    }
    const groupLinks = [...between].map(([pair, weight]) => {
      const [source, target] = pair.split('\n');
      return { source, target, weight } as SimulationLinkDatum<Group> & { weight: number };
    });
    const groupById = new Map(groups.map((group) => [group.key, group]));
    const ofLink = (end: string | number | Group) =>
      typeof end === 'object' ? end : groupById.get(String(end));
    // Wider frames pull clusters in less from the sides than from above and below.
    const spreadX = 0.08 / aspect;
    const spreadY = 0.08 * aspect;
    settle(
      forceSimulation(groups)
        .force(
          'link',
          forceLink<Group, SimulationLinkDatum<Group> & { weight: number }>(groupLinks)
            .id((group) => group.key)
            .distance(
              (link) => (ofLink(link.source)?.radius ?? 0) + (ofLink(link.target)?.radius ?? 0),
            )
            .strength((link) => Math.min(1, link.weight / 4) * 0.3),
        )
        .force('charge', forceManyBody<Group>().strength(-30))
        .force('x', forceX<Group>(0).strength(spreadX))
        .force('y', forceY<Group>(0).strength(spreadY))
        .force(
          'collide',
          forceCollide<Group>((group) => group.radius + NOTE_ROOM / 2).iterations(3),
        ),
      120,
    );
    stretch(groups, aspect, asideArea(graph.nodes, neighbours));

    const indexInGroup = new Map<string, number>();
    const simNodes: SimNode[] = linkedNodes.map((node) => {
      const group = groupById.get(clusterOf.get(node.id) ?? '');
      const cx = group?.x ?? 0;
      const cy = group?.y ?? 0;
      const index = indexInGroup.get(group?.key ?? '') ?? 0;
      indexInGroup.set(group?.key ?? '', index + 1);
      const start = spiral(index, NOTE_ROOM * 0.6);
      return { id: node.id, r: nodeRadius(node.degree), cx, cy, x: cx + start.x, y: cy + start.y };
    });
    const simLinks: SimulationLinkDatum<SimNode>[] = edges.map((edge) => ({
      source: edge.source,
      target: edge.target,
    }));
    const sameCluster = (link: SimulationLinkDatum<SimNode>) => {
      const a = typeof link.source === 'object' ? link.source.id : String(link.source);
      const b = typeof link.target === 'object' ? link.target.id : String(link.target);
      return clusterOf.get(a) === clusterOf.get(b);
    };
    settle(
      forceSimulation(simNodes)
        .force(
          'link',
          forceLink<SimNode, SimulationLinkDatum<SimNode>>(simLinks)
            .id((node) => node.id)
            .distance(NOTE_ROOM)
            .strength((link) => (sameCluster(link) ? 0.5 : 0.05)),
        )
        .force('x', forceX<SimNode>((node) => node.cx).strength(0.12))
        .force('y', forceY<SimNode>((node) => node.cy).strength(0.12))
        .force(
          'collide',
          forceCollide<SimNode>((node) => node.r + NOTE_ROOM / 3),
        ),
      ticks,
    );
    for (const node of simNodes)
      position.set(node.id, { x: node.x ?? 0, y: node.y ?? 0, r: node.r });

    for (const group of groups) {
      const members = simNodes.filter((node) => clusterOf.get(node.id) === group.key);
      const top = Math.min(...members.map((node) => (node.y ?? 0) - node.r));
      const x = members.reduce((sum, node) => sum + (node.x ?? 0), 0) / members.length;
      const y = members.reduce((sum, node) => sum + (node.y ?? 0), 0) / members.length;
      clusters.push({
        key: group.key,
        ...(group.key.startsWith('#') ? { tag: group.key.slice(1) } : {}),
        linked: true,
        size: group.size,
        x,
        y: top - 10,
        centre: { x, y },
      });
    }
  }

  const linkedBox = boxOf([...position.values()]);
  let aside: Bounds | undefined;
  if (looseNodes.length > 0) {
    const groups = new Map<string, NoteGraphNode[]>();
    for (const node of looseNodes) {
      const key = clusterOf.get(node.id) ?? '-';
      const members = groups.get(key);
      if (members) members.push(node);
      else groups.set(key, [node]);
    }
    // Tags with the most notes first, notes without a tag last.
    const ordered = [...groups].sort(
      ([a, notesA], [b, notesB]) =>
        Number(a === '-') - Number(b === '-') || notesB.length - notesA.length || byName(a, b),
    );
    const placed = placeAside(ordered, linkedBox, aspect);
    aside = placed.box;
    for (const [item, cell] of placed.cells) {
      if (typeof item === 'string') {
        const tag = item.startsWith('-#') ? item.slice(2) : undefined;
        clusters.push({
          key: item,
          ...(tag === undefined ? {} : { tag }),
          linked: false,
          size: groups.get(item)?.length ?? 0,
          x: cell.x,
          y: cell.y + ASIDE_ROW / 2,
        });
      } else {
        position.set(item.id, {
          x: cell.x + nodeRadius(0),
          y: cell.y + ASIDE_ROW / 2,
          r: nodeRadius(0),
        });
      }
    }
  }

  const nodes: PlacedNode[] = graph.nodes.map((node) => {
    const placed = position.get(node.id) ?? { x: 0, y: 0, r: nodeRadius(0) };
    return {
      ...node,
      ...placed,
      cluster: clusterOf.get(node.id) ?? '-',
      linked: neighbours.has(node.id),
    };
  });

  const bounds: Bounds = nodes.length
    ? {
        minX: Math.min(...nodes.map((n) => n.x - Math.max(n.r, LABEL_HALF_WIDTH))),
        minY: Math.min(...nodes.map((n) => n.y - n.r), ...clusters.map((c) => c.y - LABEL_HEIGHT)),
        maxX: Math.max(...nodes.map((n) => n.x + Math.max(n.r, LABEL_HALF_WIDTH))),
        maxY: Math.max(...nodes.map((n) => n.y + n.r + LABEL_HEIGHT)),
      }
    : { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  if (aside) {
    bounds.minX = Math.min(bounds.minX, aside.minX);
    bounds.minY = Math.min(bounds.minY, aside.minY);
    bounds.maxX = Math.max(bounds.maxX, aside.maxX);
    bounds.maxY = Math.max(bounds.maxY, aside.maxY);
  }

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
    clusters,
    ...(aside ? { aside } : {}),
    bounds,
  };
}

/**
 * Spreads the clusters' centres apart along one axis so that, with the block aside next to
 * them (at the right in a wide frame, below in a tall one), the whole map has about the
 * frame's shape. `asideArea` is the room the block takes.
 */
const stretch = (groups: Group[], aspect: number, asideArea: number) => {
  const box = {
    minX: Math.min(...groups.map((g) => (g.x ?? 0) - g.radius)),
    maxX: Math.max(...groups.map((g) => (g.x ?? 0) + g.radius)),
    minY: Math.min(...groups.map((g) => (g.y ?? 0) - g.radius)),
    maxY: Math.max(...groups.map((g) => (g.y ?? 0) + g.radius)),
  };
  const width = Math.max(1, box.maxX - box.minX);
  const height = Math.max(1, box.maxY - box.minY);
  const gap = asideArea > 0 ? ASIDE_GAP : 0;
  const wide = aspect >= width / height;
  const wanted = wide
    ? (aspect * height - gap - asideArea / height) / width
    : (width / aspect - gap - asideArea / width) / height;
  const factor = Math.min(3, Math.max(1, wanted));
  const midX = (box.minX + box.maxX) / 2;
  const midY = (box.minY + box.maxY) / 2;
  for (const group of groups) {
    if (wide) group.x = midX + ((group.x ?? 0) - midX) * factor;
    else group.y = midY + ((group.y ?? 0) - midY) * factor;
  }
};

/** The room the block aside takes: a row for each note without links and each of its tags. */
const asideArea = (nodes: NoteGraphNode[], neighbours: Map<string, string[]>) => {
  const loose = nodes.filter((node) => !neighbours.has(node.id));
  const tags = new Set(loose.map((node) => node.tags[0]));
  return loose.length ? (loose.length + tags.size) * ASIDE_COLUMN * ASIDE_ROW : 0;
};

const boxOf = (points: { x: number; y: number; r: number }[]): Bounds | undefined =>
  points.length
    ? {
        minX: Math.min(...points.map((p) => p.x - p.r)),
        minY: Math.min(...points.map((p) => p.y - p.r)),
        maxX: Math.max(...points.map((p) => p.x + p.r)),
        maxY: Math.max(...points.map((p) => p.y + p.r)),
      }
    : undefined;

type AsideItem = string | NoteGraphNode;

/**
 * Flows the notes without links (captions as strings, then their notes) down columns: to the
 * right of the linked notes or below them, with the columns that let the whole map be drawn
 * largest in a frame of the given shape.
 */
function placeAside(
  groups: [string, NoteGraphNode[]][],
  linked: Bounds | undefined,
  aspect: number,
) {
  const items: AsideItem[] = groups.flatMap(([key, notes]) => [key, ...notes]);
  const sizes = new Map(groups.map(([key, notes]) => [key, notes.length]));
  /** The column and row of each item in columns of `rows`. */
  const flow = (rows: number) => {
    const at = new Map<AsideItem, { column: number; row: number }>();
    let column = 0;
    let row = 0;
    for (const item of items) {
      // A caption never ends a column, and a tag that fits in a column is not split.
      const group = typeof item === 'string' ? (sizes.get(item) ?? 0) + 1 : 0;
      if (row >= rows || (row > 0 && group > rows - row && group <= rows)) {
        column += 1;
        row = 0;
      }
      at.set(item, { column, row });
      row += 1;
    }
    return { at, columns: column + 1 };
  };
  const width = linked ? linked.maxX - linked.minX : 0;
  const height = linked ? linked.maxY - linked.minY : 0;
  let best: { score: number; rows: number; right: boolean } | undefined;
  for (let wanted = 1; wanted <= Math.min(items.length, 40); wanted += 1) {
    const rows = Math.max(2, Math.ceil(items.length / wanted));
    const blockWidth = flow(rows).columns * ASIDE_COLUMN;
    const blockHeight = rows * ASIDE_ROW;
    for (const right of linked ? [true, false] : [true]) {
      const total = !linked
        ? { width: blockWidth, height: blockHeight }
        : right
          ? { width: width + ASIDE_GAP + blockWidth, height: Math.max(height, blockHeight) }
          : { width: Math.max(width, blockWidth), height: height + ASIDE_GAP + blockHeight };
      // The largest scale the whole map fits a frame of this shape at; among equals, fewer columns.
      const score = Math.max(total.width / aspect, total.height);
      if (!best || score < best.score * (1 - 1e-6)) best = { score, rows, right };
    }
  }
  const { rows, right } = best ?? { rows: items.length, right: true };
  const { at, columns } = flow(rows);
  const left = !linked ? 0 : right ? linked.maxX + ASIDE_GAP : linked.minX;
  const top = !linked ? 0 : right ? linked.minY : linked.maxY + ASIDE_GAP;
  const cells = new Map<AsideItem, { x: number; y: number }>();
  for (const [item, { column, row }] of at) {
    cells.set(item, { x: left + column * ASIDE_COLUMN, y: top + row * ASIDE_ROW });
  }
  const used = Math.max(...[...cells.values()].map((cell) => cell.y)) + ASIDE_ROW;
  return {
    cells,
    box: {
      minX: left - ASIDE_ROW / 2,
      minY: top - 1.5 * ASIDE_ROW,
      maxX: left + columns * ASIDE_COLUMN - ASIDE_ROW / 2,
      maxY: used + ASIDE_ROW / 2,
    },
  };
}
