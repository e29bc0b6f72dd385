import type { LinkedNote } from '@noted/api';
import { createContext, useContext, useMemo } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import Markdown from 'react-markdown';
import type { Components, ExtraProps } from 'react-markdown';
import { Link } from '@noted/router';
import remarkGfm from 'remark-gfm';
import { useNotesMessages } from '../messages';
import { remarkWikiLinks } from './markdown';

type HastElement = NonNullable<ExtraProps['node']>;
type HastNode = HastElement | HastElement['children'][number];

/** The text of a list item without the lists nested in it. */
const textOf = (node: HastNode): string => {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element' || node.tagName === 'ul' || node.tagName === 'ol') return '';
  return node.children.map(textOf).join('');
};

interface PreviewContextValue {
  resolve: (title: string) => LinkedNote | undefined;
  /** Undefined when the body is only read (a shared note): tasks show, but cannot change. */
  onToggleTask: ((line: number) => void) | undefined;
  /** `[[Title]]` shown as text rather than resolved to a link (a card in the list). */
  wikiAsText: boolean;
}

const PreviewContext = createContext<PreviewContextValue>({
  resolve: () => undefined,
  onToggleTask: undefined,
  wikiAsText: true,
});

/** The task list item a checkbox belongs to: its line in the body and its text. */
const TaskContext = createContext<{ line: number; text: string } | undefined>(undefined);

function WikiLink({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useNotesMessages('note');
  const { resolve, onToggleTask, wikiAsText } = useContext(PreviewContext);
  // A reader of a shared note has no notes to go to: the reference stays as text.
  if (!onToggleTask || wikiAsText) return <span className="wiki-link-text">{children}</span>;
  const target = resolve(title);
  if (!target) {
    return (
      <span className="wiki-link wiki-link-missing" title={t('preview.missingLink', { title })}>
        {children}
      </span>
    );
  }
  return (
    <Link className="wiki-link" to={`/notes/${target.id}`}>
      {children}
    </Link>
  );
}

function Span({ node, children, ...props }: ComponentProps<'span'> & ExtraProps) {
  const title = node?.properties.dataWikiTitle;
  if (typeof title === 'string') return <WikiLink title={title}>{children}</WikiLink>;
  return <span {...props}>{children}</span>;
}

function ListItem({ node, children, ...props }: ComponentProps<'li'> & ExtraProps) {
  const line = node?.position?.start.line;
  if (!node || !line || !String(props.className).includes('task-list-item')) {
    return <li {...props}>{children}</li>;
  }
  return (
    <li {...props}>
      <TaskContext.Provider value={{ line, text: textOf(node).trim() }}>
        {children}
      </TaskContext.Provider>
    </li>
  );
}

function Checkbox({ node: _node, ...props }: ComponentProps<'input'> & ExtraProps) {
  const { t } = useNotesMessages('note');
  const task = useContext(TaskContext);
  const { onToggleTask } = useContext(PreviewContext);
  if (props.type !== 'checkbox' || !task) return <input {...props} />;
  return (
    <input
      type="checkbox"
      checked={Boolean(props.checked)}
      disabled={!onToggleTask}
      onChange={() => onToggleTask?.(task.line)}
      aria-label={task.text || t('preview.task')}
    />
  );
}

function Anchor({ node: _node, children, ...props }: ComponentProps<'a'> & ExtraProps) {
  return (
    <a {...props} rel="noopener noreferrer">
      {children}
    </a>
  );
}

const components: Components = { span: Span, li: ListItem, input: Checkbox, a: Anchor };
const remarkPlugins = [remarkGfm, remarkWikiLinks];

export interface MarkdownPreviewProps {
  body: string;
  /** The notes this one links to, to resolve `[[Title]]`; undefined while unknown. */
  outgoing?: LinkedNote[] | undefined;
  /**
   * A task checkbox was clicked: tick or untick the item on `line` (1-based) of the body.
   * Without it the preview is read-only (tasks disabled, wiki references plain text).
   */
  onToggleTask?: (line: number) => void;
  /** 'text' shows `[[Title]]` as text without resolving it (a card in the list). */
  wikiLinks?: 'resolve' | 'text';
}

/** The body rendered from Markdown (GFM, no raw HTML), tasks clickable, wiki links resolved. */
export function MarkdownPreview({
  body,
  outgoing,
  onToggleTask,
  wikiLinks = 'resolve',
}: MarkdownPreviewProps) {
  const { t } = useNotesMessages('note');
  const context = useMemo<PreviewContextValue>(() => {
    const byTitle = new Map<string, LinkedNote>();
    for (const link of outgoing ?? []) {
      const key = link.title.trim().toLowerCase();
      if (!byTitle.has(key)) byTitle.set(key, link);
    }
    return {
      resolve: (title) => byTitle.get(title.trim().toLowerCase()),
      onToggleTask,
      wikiAsText: wikiLinks === 'text',
    };
  }, [outgoing, onToggleTask, wikiLinks]);

  if (!body.trim()) return <p className="note-preview-empty">{t('preview.empty')}</p>;
  return (
    <PreviewContext.Provider value={context}>
      <div className="note-preview ui-prose">
        <Markdown remarkPlugins={remarkPlugins} components={components}>
          {body}
        </Markdown>
      </div>
    </PreviewContext.Provider>
  );
}
