import type { NoteGraph } from '@noted/api';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { useHref, useLinkClickHandler } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useNotesMessages } from '../messages';
import { layoutGraph, type Bounds, type PlacedNode } from './layout';
import './mindmap.css';
import { LoadFailed, Loading } from '../LoadStatus';

export interface MindMapPageProps {
  api: Pick<NotesApi, 'links'>;
}

/** Notes one map shows; the answer counts the others in `total`. */
export const MIND_MAP_LIMIT = 500;

/** The SVG's own coordinates; CSS scales it to the width of the page. */
const VIEW_WIDTH = 960;
const VIEW_HEIGHT = 640;
const FIT_PADDING = 32;
const MIN_SCALE = 0.1;
const MAX_SCALE = 4;
const ZOOM_STEP = 1.25;
const PAN_STEP = 60;
const LABEL_MAX = 24;

interface View {
  x: number;
  y: number;
  k: number;
}

const clampScale = (k: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

const fitView = (bounds: Bounds): View => {
  const width = Math.max(1, bounds.maxX - bounds.minX);
  const height = Math.max(1, bounds.maxY - bounds.minY);
  const k = clampScale(
    Math.min((VIEW_WIDTH - 2 * FIT_PADDING) / width, (VIEW_HEIGHT - 2 * FIT_PADDING) / height, 1.5),
  );
  return {
    k,
    x: VIEW_WIDTH / 2 - (k * (bounds.minX + bounds.maxX)) / 2,
    y: VIEW_HEIGHT / 2 - (k * (bounds.minY + bounds.maxY)) / 2,
  };
};

/** Scales by `factor` keeping the point (px, py) of the SVG where it is. */
const zoomAt = (view: View, factor: number, px = VIEW_WIDTH / 2, py = VIEW_HEIGHT / 2): View => {
  const k = clampScale(view.k * factor);
  const ratio = k / view.k;
  return { k, x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio };
};

const shortLabel = (title: string) =>
  title.length > LABEL_MAX ? `${title.slice(0, LABEL_MAX - 1).trimEnd()}…` : title;

type Settled = { key: number; graph: NoteGraph } | { key: number; error: unknown };

/** The /mindlink area: every note as a circle, every link between two notes as a line. */
export function MindMapPage({ api }: MindMapPageProps) {
  const { t } = useNotesMessages('mindlink');
  const headingId = useId();
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled>();
  const loading = settled?.key !== generation;

  useEffect(() => {
    let active = true;
    api.links.graph({ limit: MIND_MAP_LIMIT }).then(
      (graph) => {
        if (active) setSettled({ key: generation, graph });
      },
      (error: unknown) => {
        if (!active) return;
        log.error('Loading the mind map failed.', error);
        setSettled({ key: generation, error });
      },
    );
    return () => {
      active = false;
    };
  }, [api, generation]);

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = <Loading>{t('loading')}</Loading>;
  } else if ('error' in settled) {
    content = (
      <LoadFailed
        message={(reason) => t('loadFailed', { reason })}
        error={settled.error}
        onRetry={() => setGeneration((n) => n + 1)}
      />
    );
  } else if (settled.graph.nodes.length === 0) {
    content = (
      <div className="mindmap-empty">
        <p>{t('empty.title')}</p>
        <p className="mindmap-hint">{t('empty.hint')}</p>
      </div>
    );
  } else {
    content = <MindMap key={settled.key} graph={settled.graph} />;
  }

  return (
    <section className="mindmap-page" aria-labelledby={headingId}>
      <h1 id={headingId}>{t('heading')}</h1>
      {content}
    </section>
  );
}

function MindMap({ graph }: { graph: NoteGraph }) {
  const { t } = useNotesMessages('mindlink');
  const titleOf = (node: Pick<PlacedNode, 'title'>) => node.title.trim() || t('untitled');
  const helpId = useId();
  const filterId = useId();
  const layout = useMemo(() => layoutGraph(graph), [graph]);
  const [view, setView] = useState<View>(() => fitView(layout.bounds));
  const [active, setActive] = useState<string>();
  const [query, setQuery] = useState('');
  const svgRef = useRef<SVGSVGElement>(null);
  const drag = useRef<{ pointerId: number; clientX: number; clientY: number; from: View }>(
    undefined,
  );

  const neighbours = useMemo(() => {
    const map = new Map<string, Set<string>>();
    for (const { source, target } of layout.edges) {
      map.set(source, (map.get(source) ?? new Set()).add(target));
      map.set(target, (map.get(target) ?? new Set()).add(source));
    }
    return map;
  }, [layout]);

  const needle = query.trim().toLowerCase();
  const matches = (node: PlacedNode) => titleOf(node).toLowerCase().includes(needle);
  const matchCount = needle ? layout.nodes.filter(matches).length : layout.nodes.length;
  const related = active ? new Set([active, ...(neighbours.get(active) ?? [])]) : undefined;

  /** SVG units per CSS pixel: the SVG keeps its aspect ratio, so one factor does. */
  const unitsPerPixel = () => {
    const width = svgRef.current?.getBoundingClientRect().width ?? 0;
    return width > 0 ? VIEW_WIDTH / width : 1;
  };

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    // A listener React adds is passive, and could not keep the page from scrolling.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = svg.getBoundingClientRect();
      const scale = rect.width > 0 ? VIEW_WIDTH / rect.width : 1;
      const px = (event.clientX - rect.left) * scale;
      const py = (event.clientY - rect.top) * scale;
      setView((current) => zoomAt(current, Math.exp(-event.deltaY * 0.002), px, py));
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0 || (event.target as Element).closest('a')) return;
    drag.current = {
      pointerId: event.pointerId,
      clientX: event.clientX,
      clientY: event.clientY,
      from: view,
    };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    if (!start || start.pointerId !== event.pointerId) return;
    const scale = unitsPerPixel();
    setView({
      ...start.from,
      x: start.from.x + (event.clientX - start.clientX) * scale,
      y: start.from.y + (event.clientY - start.clientY) * scale,
    });
  };

  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = undefined;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [PAN_STEP, 0],
      ArrowRight: [-PAN_STEP, 0],
      ArrowUp: [0, PAN_STEP],
      ArrowDown: [0, -PAN_STEP],
    };
    const move = moves[event.key];
    if (move) {
      setView((current) => ({ ...current, x: current.x + move[0], y: current.y + move[1] }));
    } else if (event.key === '+' || event.key === '=') {
      setView((current) => zoomAt(current, ZOOM_STEP));
    } else if (event.key === '-') {
      setView((current) => zoomAt(current, 1 / ZOOM_STEP));
    } else if (event.key === '0') {
      setView(fitView(layout.bounds));
    } else {
      return;
    }
    event.preventDefault();
  };

  const focusFirstMatch = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || !needle) return;
    event.preventDefault();
    const first = layout.nodes.find(matches);
    if (first) svgRef.current?.querySelector<SVGAElement>(`[data-id="${first.id}"]`)?.focus();
  };

  return (
    <div className="mindmap">
      <div className="mindmap-toolbar">
        <div className="mindmap-filter">
          <label htmlFor={filterId}>{t('find')}</label>
          <input
            id={filterId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={focusFirstMatch}
          />
        </div>
        <div className="mindmap-zoom" role="group" aria-label={t('zoom.label')}>
          <button
            type="button"
            className="mindmap-button"
            onClick={() => setView((current) => zoomAt(current, ZOOM_STEP))}
          >
            {t('zoom.in')}
          </button>
          <button
            type="button"
            className="mindmap-button"
            onClick={() => setView((current) => zoomAt(current, 1 / ZOOM_STEP))}
          >
            {t('zoom.out')}
          </button>
          <button
            type="button"
            className="mindmap-button"
            onClick={() => setView(fitView(layout.bounds))}
          >
            {t('zoom.fit')}
          </button>
        </div>
      </div>

      <p className="mindmap-status" role="status">
        {needle
          ? matchCount === 0
            ? t('noMatch')
            : t('matches', { matched: matchCount, count: layout.nodes.length })
          : null}
      </p>
      {graph.total > graph.nodes.length ? (
        <p className="mindmap-note">
          {t('showing', { shown: graph.nodes.length, total: graph.total })}
        </p>
      ) : null}
      {layout.edges.length === 0 ? <p className="mindmap-note">{t('noLinks')}</p> : null}

      <svg
        ref={svgRef}
        className="mindmap-canvas"
        viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
        role="group"
        aria-label={t('canvas')}
        aria-describedby={helpId}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
      >
        <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
          <g className="mindmap-edges" aria-hidden="true">
            {layout.edges.map((edge) => {
              const lit =
                active !== undefined && (edge.source === active || edge.target === active);
              const classes = ['mindmap-edge', `mindmap-edge-${edge.kind}`];
              if (lit) classes.push('mindmap-edge-lit');
              else if (related) classes.push('mindmap-faded');
              return (
                <line
                  key={`${edge.source}>${edge.target}>${edge.kind}`}
                  className={classes.join(' ')}
                  x1={edge.x1}
                  y1={edge.y1}
                  x2={edge.x2}
                  y2={edge.y2}
                />
              );
            })}
          </g>
          <g className="mindmap-nodes">
            {layout.nodes.map((node) => (
              <MapNode
                key={node.id}
                node={node}
                title={titleOf(node)}
                dimmed={needle !== '' && !matches(node)}
                faded={related !== undefined && !related.has(node.id)}
                active={active === node.id}
                onActivate={setActive}
                onDeactivate={(id) =>
                  setActive((current) => (current === id ? undefined : current))
                }
              />
            ))}
          </g>
        </g>
      </svg>

      <p id={helpId} className="mindmap-hint">
        {t('help')}
      </p>

      <ul className="mindmap-legend" aria-label={t('legend.label')}>
        <li>
          <svg viewBox="0 0 32 12" aria-hidden="true">
            <line className="mindmap-edge mindmap-edge-manual" x1="2" y1="6" x2="30" y2="6" />
          </svg>
          {t('legend.manual')}
        </li>
        <li>
          <svg viewBox="0 0 32 12" aria-hidden="true">
            <line className="mindmap-edge mindmap-edge-wiki" x1="2" y1="6" x2="30" y2="6" />
          </svg>
          {t('legend.wiki')}
        </li>
        <li>
          <svg viewBox="0 0 20 20" aria-hidden="true">
            <circle className="mindmap-dot mindmap-dot-pinned" cx="10" cy="10" r="6" />
          </svg>
          {t('legend.pinned')}
        </li>
        <li>
          <svg viewBox="0 0 20 20" aria-hidden="true">
            <circle className="mindmap-dot" cx="10" cy="10" r="8" />
          </svg>
          {t('legend.size')}
        </li>
      </ul>
    </div>
  );
}

interface MapNodeProps {
  node: PlacedNode;
  /** The note's title, or what stands for one. */
  title: string;
  dimmed: boolean;
  faded: boolean;
  active: boolean;
  onActivate: (id: string) => void;
  onDeactivate: (id: string) => void;
}

/** One note: an SVG link to its page, opened through the router. */
function MapNode({ node, title, dimmed, faded, active, onActivate, onDeactivate }: MapNodeProps) {
  const to = `/notes/${node.id}`;
  const href = useHref(to);
  const onClick = useLinkClickHandler(to);
  const classes = ['mindmap-node'];
  if (node.isPinned) classes.push('mindmap-node-pinned');
  if (dimmed) classes.push('mindmap-node-dimmed');
  if (faded) classes.push('mindmap-faded');
  if (active) classes.push('mindmap-node-active');

  return (
    <a
      href={href}
      role="link"
      tabIndex={0}
      aria-label={title}
      data-id={node.id}
      className={classes.join(' ')}
      onClick={onClick}
      onPointerEnter={() => onActivate(node.id)}
      onPointerLeave={() => onDeactivate(node.id)}
      onFocus={() => onActivate(node.id)}
      onBlur={() => onDeactivate(node.id)}
    >
      <title>{title}</title>
      <circle className="mindmap-dot" cx={node.x} cy={node.y} r={node.r} />
      {node.isPinned ? (
        <circle className="mindmap-pin" cx={node.x} cy={node.y} r={node.r + 4} />
      ) : null}
      <text className="mindmap-label" x={node.x} y={node.y + node.r + 13} textAnchor="middle">
        {shortLabel(title)}
      </text>
    </a>
  );
}
