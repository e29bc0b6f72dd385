import type { NoteGraph } from '@noted/api';
import {
  EmptyState,
  IconButton,
  InfoIcon,
  MaximizeIcon,
  NetworkIcon,
  PageHeader,
  PencilIcon,
  SearchInput,
  ZoomInIcon,
  ZoomOutIcon,
  buttonClass,
  useLiveMessages,
  useLiveReconnect,
} from '@noted/ui';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CSSProperties, KeyboardEvent, PointerEvent } from 'react';
import { Link, useHref, useLinkClickHandler } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useNotesMessages } from '../messages';
import { layoutGraph, type Bounds, type PlacedNode } from './layout';
import './mindmap.css';
import { LoadFailed } from '../LoadStatus';

export interface MindMapPageProps {
  api: Pick<NotesApi, 'links'>;
}

/** Notes one map shows; the answer counts the others in `total`. */
export const MIND_MAP_LIMIT = 500;

/**
 * The SVG's size until it is measured (and where nothing is laid out, as in tests); once
 * measured, one unit of the SVG is one CSS pixel, whatever the shape of the frame.
 */
const VIEW_WIDTH = 960;
const VIEW_HEIGHT = 640;
const FIT_PADDING = 32;
const MIN_SCALE = 0.1;
const MAX_SCALE = 4;
const ZOOM_STEP = 1.25;
const PAN_STEP = 60;
const LABEL_MAX = 24;
/** Zoomed out further than this, only the labels of the notes in question are shown. */
const COMPACT_SCALE = 0.6;

interface View {
  x: number;
  y: number;
  k: number;
}

const clampScale = (k: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

interface Size {
  width: number;
  height: number;
}

interface Point {
  x: number;
  y: number;
}

const fitView = (bounds: Bounds, size: Size): View => {
  const width = Math.max(1, bounds.maxX - bounds.minX);
  const height = Math.max(1, bounds.maxY - bounds.minY);
  const k = clampScale(
    Math.min((size.width - 2 * FIT_PADDING) / width, (size.height - 2 * FIT_PADDING) / height, 1.5),
  );
  return {
    k,
    x: size.width / 2 - (k * (bounds.minX + bounds.maxX)) / 2,
    y: size.height / 2 - (k * (bounds.minY + bounds.maxY)) / 2,
  };
};

/** Scales by `factor` keeping the point `at` of the SVG where it is. */
const zoomAt = (view: View, factor: number, at: Point): View => {
  const k = clampScale(view.k * factor);
  const ratio = k / view.k;
  return { k, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio };
};

const middle = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y) || 1;

/** Where a drag or a pinch began: the view then, and where each pointer was. */
interface Gesture {
  from: View;
  points: Map<number, Point>;
}

const shortLabel = (title: string) =>
  title.length > LABEL_MAX ? `${title.slice(0, LABEL_MAX - 1).trimEnd()}…` : title;

type Settled = { key: number; graph: NoteGraph } | { key: number; error: unknown };

/** How long the map waits after a change made elsewhere before reading itself again. */
const LIVE_REFRESH_MS = 1_500;

const sameGraph = (a: NoteGraph, b: NoteGraph) => JSON.stringify(a) === JSON.stringify(b);

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
        if (!active) return;
        // The same graph again keeps its object, so the map keeps its layout.
        setSettled((previous) =>
          previous && 'graph' in previous && sameGraph(previous.graph, graph)
            ? { key: generation, graph: previous.graph }
            : { key: generation, graph },
        );
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

  // Notes changed elsewhere may change the map (titles, links, notes added or deleted): it is
  // read again once the changes have settled, and after the live connection was down.
  const refresh = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(refresh.current), []);
  useLiveMessages((message) => {
    if (message.type !== 'noteUpdated' && message.type !== 'noteDeleted') return;
    clearTimeout(refresh.current);
    refresh.current = setTimeout(() => setGeneration((n) => n + 1), LIVE_REFRESH_MS);
  });
  useLiveReconnect(() => setGeneration((n) => n + 1));

  let content;
  if (!settled || (loading && 'error' in settled)) {
    content = (
      <div className="ui-skeleton" role="status">
        <span className="visually-hidden">{t('loading')}</span>
        <span className="ui-skeleton-line mindmap-skeleton-bar" aria-hidden="true" />
        <span className="ui-skeleton-block mindmap-skeleton" aria-hidden="true" />
      </div>
    );
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
      <EmptyState
        icon={NetworkIcon}
        title={t('empty.title')}
        action={
          <Link to="/" className={buttonClass({ variant: 'primary' })}>
            <PencilIcon className="ui-icon" aria-hidden="true" />
            {t('empty.write')}
          </Link>
        }
      >
        {t('empty.hint')}
      </EmptyState>
    );
  } else {
    content = <MindMap key={settled.key} graph={settled.graph} />;
  }

  return (
    <section className="mindmap-page" aria-labelledby={headingId}>
      <PageHeader titleId={headingId} title={t('heading')} description={t('description')} />
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
  const [size, setSize] = useState<Size>({ width: VIEW_WIDTH, height: VIEW_HEIGHT });
  /** Where the user has moved the map to; until then, it fits the frame, whatever its size. */
  const [moved, setMoved] = useState<View>();
  const [active, setActive] = useState<string>();
  const [query, setQuery] = useState('');
  const svgRef = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>(undefined);
  const fitted = useMemo(() => fitView(layout.bounds, size), [layout, size]);
  const view = moved ?? fitted;
  const centre = { x: size.width / 2, y: size.height / 2 };

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

  // The SVG's units follow its size in CSS pixels, so the map fills the frame on any screen.
  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const measure = () => {
      const rect = svg.getBoundingClientRect();
      if (rect.width < 1 || rect.height < 1) return;
      const next = { width: Math.round(rect.width), height: Math.round(rect.height) };
      setSize((current) =>
        current.width === next.width && current.height === next.height ? current : next,
      );
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(svg);
    return () => observer.disconnect();
  }, []);

  /** A point of the screen in the SVG's units. */
  const toSvg = (clientX: number, clientY: number): Point => {
    const rect = svgRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: clientX, y: clientY };
    return {
      x: ((clientX - rect.left) * size.width) / rect.width,
      y: ((clientY - rect.top) * size.height) / rect.height,
    };
  };
  // The wheel listener is added once; it reads the latest measures through these.
  const toSvgRef = useRef(toSvg);
  const fittedRef = useRef(fitted);
  useEffect(() => {
    toSvgRef.current = toSvg;
    fittedRef.current = fitted;
  });

  const change = (next: (current: View) => View) => setMoved((current) => next(current ?? view));

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    // A listener React adds is passive, and could not keep the page from scrolling.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const at = toSvgRef.current(event.clientX, event.clientY);
      setMoved((current) =>
        zoomAt(current ?? fittedRef.current, Math.exp(-event.deltaY * 0.002), at),
      );
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  /** One pointer drags the map; two pinch it, zooming about the point between them. */
  const restart = () => {
    gesture.current =
      pointers.current.size > 0 ? { from: view, points: new Map(pointers.current) } : undefined;
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0 || (event.target as Element).closest('a')) return;
    pointers.current.set(event.pointerId, toSvg(event.clientX, event.clientY));
    event.currentTarget.setPointerCapture?.(event.pointerId);
    restart();
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, toSvg(event.clientX, event.clientY));
    const start = gesture.current;
    if (!start) return;
    const [a, b] = [...pointers.current.keys()];
    const nowA = a === undefined ? undefined : pointers.current.get(a);
    const fromA = a === undefined ? undefined : start.points.get(a);
    if (!nowA || !fromA) return;
    const nowB = b === undefined ? undefined : pointers.current.get(b);
    const fromB = b === undefined ? undefined : start.points.get(b);
    if (nowB && fromB) {
      const from = middle(fromA, fromB);
      const to = middle(nowA, nowB);
      const zoomed = zoomAt(start.from, distance(nowA, nowB) / distance(fromA, fromB), from);
      setMoved({ ...zoomed, x: zoomed.x + to.x - from.x, y: zoomed.y + to.y - from.y });
    } else {
      setMoved({
        ...start.from,
        x: start.from.x + nowA.x - fromA.x,
        y: start.from.y + nowA.y - fromA.y,
      });
    }
  };

  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (!pointers.current.delete(event.pointerId)) return;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    restart();
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
      change((current) => ({ ...current, x: current.x + move[0], y: current.y + move[1] }));
    } else if (event.key === '+' || event.key === '=') {
      change((current) => zoomAt(current, ZOOM_STEP, centre));
    } else if (event.key === '-') {
      change((current) => zoomAt(current, 1 / ZOOM_STEP, centre));
    } else if (event.key === '0') {
      setMoved(undefined);
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
    <div className="mindmap ui-card">
      <div className="mindmap-toolbar">
        <label htmlFor={filterId} className="visually-hidden">
          {t('find')}
        </label>
        <SearchInput
          id={filterId}
          size="sm"
          className="mindmap-filter"
          placeholder={t('find')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={focusFirstMatch}
        />
        <p className="mindmap-status" role="status">
          {needle
            ? matchCount === 0
              ? t('noMatch')
              : t('matches', { matched: matchCount, count: layout.nodes.length })
            : null}
        </p>
      </div>

      <div className="mindmap-stage">
        <svg
          ref={svgRef}
          className={view.k < COMPACT_SCALE ? 'mindmap-canvas mindmap-compact' : 'mindmap-canvas'}
          viewBox={`0 0 ${size.width} ${size.height}`}
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
          <g
            transform={`translate(${view.x} ${view.y}) scale(${view.k})`}
            style={{ '--mindmap-k': view.k } as CSSProperties}
          >
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

        <div className="mindmap-zoom" role="group" aria-label={t('zoom.label')}>
          <IconButton
            label={t('zoom.in')}
            icon={ZoomInIcon}
            variant="secondary"
            size="lg"
            onClick={() => change((current) => zoomAt(current, ZOOM_STEP, centre))}
          />
          <IconButton
            label={t('zoom.out')}
            icon={ZoomOutIcon}
            variant="secondary"
            size="lg"
            onClick={() => change((current) => zoomAt(current, 1 / ZOOM_STEP, centre))}
          />
          <IconButton
            label={t('zoom.fit')}
            icon={MaximizeIcon}
            variant="secondary"
            size="lg"
            onClick={() => setMoved(undefined)}
          />
        </div>

        {graph.total > graph.nodes.length || layout.edges.length === 0 ? (
          <div className="mindmap-notes">
            {graph.total > graph.nodes.length ? (
              <p className="mindmap-note">
                <InfoIcon className="ui-icon" aria-hidden="true" />
                {t('showing', { shown: graph.nodes.length, total: graph.total })}
              </p>
            ) : null}
            {layout.edges.length === 0 ? (
              <p className="mindmap-note">
                <InfoIcon className="ui-icon" aria-hidden="true" />
                {t('noLinks')}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>

      <div className="mindmap-foot">
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
              <circle className="mindmap-dot" cx="10" cy="10" r="5" />
              <circle className="mindmap-pin" cx="10" cy="10" r="8" />
            </svg>
            {t('legend.pinned')}
          </li>
          <li>
            <svg viewBox="0 0 20 20" aria-hidden="true">
              <circle className="mindmap-dot" cx="5" cy="12" r="3" />
              <circle className="mindmap-dot" cx="14" cy="10" r="6" />
            </svg>
            {t('legend.size')}
          </li>
        </ul>
        <p id={helpId} className="mindmap-hint">
          {t('help')}
        </p>
      </div>
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
      <text className="mindmap-label" x={node.x} y={node.y + node.r} dy="1.3em" textAnchor="middle">
        {shortLabel(title)}
      </text>
    </a>
  );
}
