import type { NoteGraph } from '@noted/api';

const TAGS = [
  'work',
  'cooking',
  'travel',
  'books',
  'health',
  'garden',
  'finance',
  'ideas',
  'learning',
  'home',
  'meetings',
  '生活',
];

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A graph as a person's notes make one, for tests: a dozen tags, most notes linked to earlier
 * notes of their tag (a few to another tag's), a fifth tagged but not linked, a tenth neither.
 */
export function tagGraph(count: number): NoteGraph {
  const edges: NoteGraph['edges'] = [];
  const linkable = new Map<string, number[]>();
  const nodes = Array.from({ length: count }, (_, i) => {
    const tag = TAGS[i % TAGS.length] ?? 'work';
    const kind = i % 10;
    const tags = kind === 9 ? [] : [tag];
    const own = linkable.get(tag) ?? [];
    if (kind < 7) {
      const earlier = own[(i * 7) % Math.max(1, own.length)];
      if (earlier !== undefined) {
        edges.push({ source: id(i), target: id(earlier), kind: 'wiki' });
      }
      const across = linkable.get(TAGS[(i * 5) % TAGS.length] ?? tag) ?? [];
      const far = across[i % Math.max(1, across.length)];
      if (i % 11 === 0 && far !== undefined) {
        edges.push({ source: id(i), target: id(far), kind: 'manual' });
      }
      linkable.set(tag, [...own, i]);
    }
    return {
      id: id(i),
      title: kind === 8 ? `${tag} idea ${i}` : `Notes on ${tag} ${i}: the long version`,
      tags,
      isPinned: i % 37 === 3,
      degree: 0,
    };
  });
  for (const edge of edges) {
    for (const end of [edge.source, edge.target]) {
      const node = nodes.find((n) => n.id === end);
      if (node) node.degree += 1;
    }
  }
  return { nodes, edges, total: count };
}
