import type { NoteGraph } from '@noted/api';
import { AppError } from '@noted/api';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from '@noted/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestShell, TestShell } from '@noted/ui/testing';
import type { NotesApi } from '../api';
import { chineseNotesSets, createNotesTestI18n } from '../testing';
import { MIND_MAP_LIMIT, MindMapPage } from './MindMapPage';

const RUST = '00000000-0000-4000-8000-000000000001';
const CARGO = '00000000-0000-4000-8000-000000000002';
const BREAD = '00000000-0000-4000-8000-000000000003';

const linked: NoteGraph = {
  nodes: [
    { id: RUST, title: 'Rust', tags: ['lang'], isPinned: true, degree: 2 },
    { id: CARGO, title: 'Cargo', tags: [], isPinned: false, degree: 1 },
    { id: BREAD, title: '', tags: [], isPinned: false, degree: 1 },
  ],
  edges: [
    { source: RUST, target: CARGO, kind: 'manual' },
    { source: BREAD, target: RUST, kind: 'wiki' },
  ],
  total: 3,
};

const linksApi = (answer: () => Promise<NoteGraph>): Pick<NotesApi, 'links'> => ({
  links: {
    get: vi.fn(),
    add: vi.fn(),
    remove: vi.fn(),
    graph: vi.fn(answer),
  },
});

function NotePage() {
  return <p>Note page {useParams().id}</p>;
}

const renderPage = (api: Pick<NotesApi, 'links'>, i18n = createNotesTestI18n()) =>
  render(
    <TestShell shell={createTestShell(i18n)}>
      <MemoryRouter initialEntries={['/mindlink']}>
        <Routes>
          <Route path="/mindlink" element={<MindMapPage api={api} />} />
          <Route path="/notes/:id" element={<NotePage />} />
        </Routes>
      </MemoryRouter>
    </TestShell>,
  );

const node = (name: string) => screen.getByRole('link', { name });
const dimmed = (name: string) => node(name).classList.contains('mindmap-node-dimmed');
const transform = () =>
  screen
    .getByRole('group', { name: 'Map of your notes' })
    .querySelector('g')
    ?.getAttribute('transform');

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('MindMapPage', () => {
  it('draws the notes as links and their links as solid or dashed lines', async () => {
    const api = linksApi(async () => linked);
    renderPage(api);
    expect(screen.getByText('Loading the mind map…')).toBeTruthy();

    const rust = await screen.findByRole('link', { name: 'Rust' });
    expect(api.links.graph).toHaveBeenCalledWith({ limit: MIND_MAP_LIMIT });
    expect(rust.getAttribute('href')).toBe(`/notes/${RUST}`);
    expect(rust.classList.contains('mindmap-node-pinned')).toBe(true);
    expect(node('Untitled').textContent).toContain('Untitled');
    const lines = [...document.querySelectorAll('.mindmap-edges line')];
    expect(lines.map((line) => line.getAttribute('class'))).toEqual([
      'mindmap-edge mindmap-edge-manual',
      'mindmap-edge mindmap-edge-wiki',
    ]);
    expect(screen.getByRole('list', { name: 'Legend' })).toBeTruthy();
    expect(screen.queryByText(/Showing/)).toBeNull();
    expect(screen.queryByText(/Link notes with/)).toBeNull();
  });

  it('opens a note when its node is clicked', async () => {
    renderPage(linksApi(async () => linked));
    fireEvent.click(await screen.findByRole('link', { name: 'Cargo' }));
    expect(screen.getByText(`Note page ${CARGO}`)).toBeTruthy();
  });

  it('dims the notes whose titles do not match the filter', async () => {
    renderPage(linksApi(async () => linked));
    await screen.findByRole('link', { name: 'Rust' });
    expect(dimmed('Rust') || dimmed('Cargo') || dimmed('Untitled')).toBe(false);

    fireEvent.change(screen.getByLabelText('Find a note'), { target: { value: 'car' } });
    expect(dimmed('Cargo')).toBe(false);
    expect(dimmed('Rust')).toBe(true);
    expect(dimmed('Untitled')).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('1 of 3 notes match');

    fireEvent.keyDown(screen.getByLabelText('Find a note'), { key: 'Enter' });
    expect(document.activeElement).toBe(node('Cargo'));
  });

  it('highlights the neighbours of the note in focus', async () => {
    const unlinked: NoteGraph = {
      ...linked,
      nodes: [
        ...linked.nodes,
        {
          id: '00000000-0000-4000-8000-000000000004',
          title: 'Loose',
          tags: [],
          isPinned: false,
          degree: 0,
        },
      ],
      total: 4,
    };
    renderPage(linksApi(async () => unlinked));
    fireEvent.focus(await screen.findByRole('link', { name: 'Cargo' }));
    expect(node('Cargo').classList.contains('mindmap-node-active')).toBe(true);
    expect(node('Rust').classList.contains('mindmap-faded')).toBe(false);
    expect(node('Untitled').classList.contains('mindmap-faded')).toBe(true);
    expect(node('Loose').classList.contains('mindmap-faded')).toBe(true);
    expect(document.querySelector('.mindmap-edge-lit')).toBeTruthy();

    fireEvent.blur(node('Cargo'));
    expect(document.querySelector('.mindmap-faded')).toBeNull();
  });

  it('labels the notes and their tag, and sets the notes without links aside', async () => {
    const loose = {
      id: '00000000-0000-4000-8000-000000000004',
      title: 'Loose',
      tags: [],
      isPinned: false,
      degree: 0,
    };
    renderPage(linksApi(async () => ({ ...linked, nodes: [...linked.nodes, loose], total: 4 })));
    await screen.findByRole('link', { name: 'Rust' });
    const labels = () =>
      [...document.querySelectorAll('.mindmap-labels text')].map((text) => text.textContent);
    expect(labels()).toEqual(
      expect.arrayContaining([
        'Rust',
        'Cargo',
        'Untitled',
        'Loose',
        '#lang',
        'Not linked',
        'No tag',
      ]),
    );
    expect(document.querySelector('.mindmap-aside')).toBeTruthy();

    fireEvent.focus(node('Loose'));
    expect(document.querySelector('.mindmap-label-active')?.textContent).toBe('Loose');
    fireEvent.change(screen.getByLabelText('Find a note'), { target: { value: 'car' } });
    expect(labels()).toContain('Cargo');
    expect(labels()).not.toContain('Rust');
  });

  it('zooms with the buttons and the keyboard, and fits back', async () => {
    renderPage(linksApi(async () => linked));
    await screen.findByRole('link', { name: 'Rust' });
    const fitted = transform();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    const zoomed = transform();
    expect(zoomed).not.toBe(fitted);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    fireEvent.keyDown(screen.getByRole('group', { name: 'Map of your notes' }), {
      key: 'ArrowLeft',
    });
    expect(transform()).not.toBe(fitted);
    fireEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(transform()).toBe(fitted);
  });

  it('moves with one finger and zooms with two', async () => {
    renderPage(linksApi(async () => linked));
    await screen.findByRole('link', { name: 'Rust' });
    const canvas = screen.getByRole('group', { name: 'Map of your notes' });
    const scale = () => Number(/scale\(([\d.]+)\)/.exec(transform() ?? '')?.[1]);
    const fitted = scale();
    const before = transform();

    fireEvent.pointerDown(canvas, { pointerId: 1, button: 0, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 140, clientY: 100 });
    expect(scale()).toBe(fitted);
    const dragged = transform();
    expect(dragged).not.toBe(before);

    fireEvent.pointerDown(canvas, { pointerId: 2, button: 0, clientX: 240, clientY: 100 });
    fireEvent.pointerMove(canvas, { pointerId: 2, clientX: 340, clientY: 100 });
    expect(scale()).toBeCloseTo(fitted * 2);
    fireEvent.pointerUp(canvas, { pointerId: 2 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    expect(transform()).not.toBe(dragged);

    fireEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(scale()).toBe(fitted);
  });

  it('says how many notes it shows, and how to link notes', async () => {
    renderPage(linksApi(async () => ({ nodes: linked.nodes.slice(0, 2), edges: [], total: 812 })));
    expect(await screen.findByText('Showing 2 of 812 notes')).toBeTruthy();
    expect(screen.getByText('Link notes with [[Title]] to see them connected')).toBeTruthy();
  });

  it('says when there are no notes', async () => {
    renderPage(linksApi(async () => ({ nodes: [], edges: [], total: 0 })));
    expect(await screen.findByText('No notes yet')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Map of your notes' })).toBeNull();
  });

  it('shows a failed load with a retry', async () => {
    const api = linksApi(async () => linked);
    vi.mocked(api.links.graph).mockRejectedValueOnce(new AppError('INTERNAL', 'Boom'));
    renderPage(api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The mind map could not be loaded: Boom');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Rust' })).toBeTruthy();
  });

  it('speaks Chinese when the page does', async () => {
    const api = linksApi(async () => linked);
    vi.mocked(api.links.graph).mockRejectedValueOnce(new AppError('INTERNAL', 'Boom'));
    renderPage(api, createNotesTestI18n(chineseNotesSets));
    expect(screen.getByText('正在加载思维导图…')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '思维导图' })).toBeTruthy();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('无法加载思维导图：Boom');
    fireEvent.click(within(alert).getByRole('button', { name: '重试' }));

    await screen.findByRole('link', { name: 'Rust' });
    expect(node('无标题')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('查找笔记'), { target: { value: 'car' } });
    expect(screen.getByRole('status').textContent).toBe('3 条笔记中有 1 条匹配');
    expect(screen.getByRole('button', { name: '放大' })).toBeTruthy();
    expect(screen.getByRole('group', { name: '笔记关系图' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: '图例' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['手动添加的链接', '笔记中的 [[标题]] 链接', '置顶的笔记', '越大：链接越多']);
  });
});
