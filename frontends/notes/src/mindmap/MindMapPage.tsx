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
import type { KeyboardEvent, PointerEvent } from 'react';
import { Link, useHref, useLinkClickHandler } from '@noted/router';
import type { NotesApi } from '../api';
import { log } from '../log';
import { useNotesMessages } from '../messages';
import { layoutGraph, type Cluster, type GraphLayout, type PlacedNode } from './layout';
import {
  estimateWidth,
  fitView as fitBox,
  placeLabels,
  screenRadius,
  shortLabel,
  type Box,
  type Measure,
  type PlacedLabel,
  type Size,
  type View,
} from './labels';
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
const DEFAULT_SIZE: Size = { width: 960, height: 640 };
const FIT_PADDING = 32;
const MIN_SCALE = 0.1;
const MAX_SCALE = 4;
const ZOOM_STEP = 1.25;
const PAN_STEP = 60;

const clampScale = (k: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));

interface Point {
  x: number;
  y: number;
}

/** The view that shows the whole map, left of the `inset` the zoom buttons take at the right. */
const fitView = (layout: GraphLayout, size: Size, inset: number): View => {
  const frame = { width: Math.max(size.width / 2, size.width - inset), height: size.height };
  const fitted = fitBox(layout.bounds, frame, FIT_PADDING, 1.5);
  const centre = { x: size.width / 2, y: size.height / 2 };
  return fitted.k < MIN_SCALE ? zoomAt(fitted, MIN_SCALE / fitted.k, centre) : fitted;
};

/**
 * The frame's shape in steps of √2, so the map is laid out again when a phone turns, not at
 * every pixel a window is resized by.
 */
const shapeOf = (size: Size) => Math.SQRT2 ** Math.round(2 * Math.log2(size.width / size.height));

const EMPTY_LAYOUT: GraphLayout = {
  nodes: [],
  edges: [],
  clusters: [],
  bounds: { minX: 0, minY: 0, maxX: 0, maxY: 0 },
};

/** Text widths from the page's own font where a canvas can measure them, estimated elsewhere. */
const textMeasure = (element: Element | null): Measure => {
  const context =
    typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  if (!context || !element) return estimateWidth;
  const family = getComputedStyle(element).fontFamily || 'sans-serif';
  const widths = new Map<string, number>();
  return (text, kind) => {
    const key = `${kind}\n${text}`;
    let width = widths.get(key);
    if (width === undefined) {
      context.font = `${kind === 'note' ? 500 : 600} 12px ${family}`;
      width = context.measureText(text).width;
      widths.set(key, width);
    }
    return width;
  };
};

/** Where an element sits in the frame, in the SVG's units. */
const boxWithin = (element: Element | null, frame: DOMRect): Box | undefined => {
  const rect = element?.getBoundingClientRect();
  if (!rect || rect.width < 1 || rect.height < 1) return undefined;
  return {
    x: rect.left - frame.left,
    y: rect.top - frame.top,
    width: rect.width,
    height: rect.height,
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
  const untitled = t('untitled');
  const titleOf = (node: Pick<PlacedNode, 'title'>) => node.title.trim() || untitled;
  const helpId = useId();
  const filterId = useId();
  /** The frame's size once measured; the map is laid out for its shape only then. */
  const [measured, setMeasured] = useState<Size>();
  const size = measured ?? DEFAULT_SIZE;
  const shape = measured ? shapeOf(measured) : undefined;
  const layout = useMemo(
    () => (shape === undefined ? EMPTY_LAYOUT : layoutGraph(graph, { aspect: shape })),
    [graph, shape],
  );
  /** The controls over the canvas, where no label goes. */
  const [reserved, setReserved] = useState<Box[]>([]);
  const [measure, setMeasure] = useState<Measure>(() => estimateWidth);
  /** Where the user has moved the map to; until then, it fits the frame, whatever its size. */
  const [moved, setMoved] = useState<View>();
  const [active, setActive] = useState<string>();
  const [query, setQuery] = useState('');
  const svgRef = useRef<SVGSVGElement>(null);
  const zoomRef = useRef<HTMLDivElement>(null);
  const notesRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>(undefined);
  /** The width the zoom buttons take at the right of the frame, left out when fitting. */
  const [inset, setInset] = useState(0);
  const fitted = useMemo(() => fitView(layout, size, inset), [layout, size, inset]);
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
  const matched = useMemo(
    () =>
      needle
        ? new Set(
            layout.nodes
              .filter((node) => (node.title.trim() || untitled).toLowerCase().includes(needle))
              .map((node) => node.id),
          )
        : undefined,
    [layout, needle, untitled],
  );
  const matchCount = matched ? matched.size : layout.nodes.length;
  const related = useMemo(
    () => (active ? new Set([active, ...(neighbours.get(active) ?? [])]) : undefined),
    [active, neighbours],
  );
  const labels = useMemo(
    () =>
      placeLabels(layout, {
        view,
        size,
        measure,
        reserved,
        textOf: (node) => shortLabel(node.title.trim() || untitled),
        captionOf: (cluster: Cluster | undefined) =>
          !cluster ? t('aside') : cluster.tag === undefined ? t('untagged') : `#${cluster.tag}`,
        ...(active === undefined ? {} : { active }),
        ...(related ? { related } : {}),
        ...(matched ? { matched } : {}),
      }),
    [layout, view, size, measure, reserved, untitled, active, related, matched, t],
  );

  // The SVG's units follow its size in CSS pixels, so the map fills the frame on any screen.
  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    setMeasure(() => textMeasure(svg));
    const measureFrame = () => {
      const rect = svg.getBoundingClientRect();
      // Where nothing is laid out (as in tests), the map is drawn at the default size.
      const next =
        rect.width < 1 || rect.height < 1
          ? DEFAULT_SIZE
          : { width: Math.round(rect.width), height: Math.round(rect.height) };
      setMeasured((current) =>
        current && current.width === next.width && current.height === next.height ? current : next,
      );
      const boxes = [zoomRef.current, notesRef.current].flatMap(
        (element) => boxWithin(element, rect) ?? [],
      );
      const zoom = boxWithin(zoomRef.current, rect);
      setInset(zoom ? Math.max(0, Math.round(rect.width - zoom.x - FIT_PADDING / 2)) : 0);
      setReserved((current) =>
        JSON.stringify(current) === JSON.stringify(boxes) ? current : boxes,
      );
    };
    measureFrame();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measureFrame);
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
          className="mindmap-canvas"
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
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
            {layout.aside && layout.nodes.some((node) => node.linked) ? (
              <rect
                className="mindmap-aside"
                aria-hidden="true"
                x={layout.aside.minX}
                y={layout.aside.minY}
                width={layout.aside.maxX - layout.aside.minX}
                height={layout.aside.maxY - layout.aside.minY}
                rx={12 / Math.max(view.k, 0.5)}
              />
            ) : null}
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
                  r={screenRadius(node.r, view.k) / view.k}
                  k={view.k}
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
          <g className="mindmap-labels" aria-hidden="true">
            {labels.map((label) => (
              <MapLabel
                key={label.key}
                label={label}
                active={label.id !== undefined && label.id === active}
                faded={related !== undefined && label.id !== undefined && !related.has(label.id)}
              />
            ))}
          </g>
        </svg>

        <div ref={zoomRef} className="mindmap-zoom" role="group" aria-label={t('zoom.label')}>
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
          <div ref={notesRef} className="mindmap-notes">
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
  /** The circle's radius in the map's units, so it stays visible zoomed out. */
  r: number;
  /** The map's scale. */
  k: number;
  /** The note's title, or what stands for one. */
  title: string;
  dimmed: boolean;
  faded: boolean;
  active: boolean;
  onActivate: (id: string) => void;
  onDeactivate: (id: string) => void;
}

/** One note: an SVG link to its page, opened through the router. */
function MapNode({
  node,
  r,
  k,
  title,
  dimmed,
  faded,
  active,
  onActivate,
  onDeactivate,
}: MapNodeProps) {
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
      <circle className="mindmap-dot" cx={node.x} cy={node.y} r={r} />
      {node.isPinned ? (
        <circle className="mindmap-pin" cx={node.x} cy={node.y} r={r + 3 / k} />
      ) : null}
    </a>
  );
}

/** A label in screen space, over a background of the canvas's colour so lines do not cross it. */
function MapLabel({
  label,
  active,
  faded,
}: {
  label: PlacedLabel;
  active: boolean;
  faded: boolean;
}) {
  const classes = ['mindmap-label', `mindmap-label-${label.kind}`];
  if (active) classes.push('mindmap-label-active');
  if (faded) classes.push('mindmap-faded');
  const { box } = label;
  return (
    <g className={classes.join(' ')} data-id={label.id}>
      <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={box.height / 2} />
      <text x={label.x} y={label.y} textAnchor={label.anchor} dominantBaseline="central">
        {label.text}
      </text>
    </g>
  );
}
