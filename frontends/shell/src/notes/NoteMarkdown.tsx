import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';

const plugins = [remarkGfm];

/** A task's box, shown as it is: the popup only reads the note. */
function TaskBox({ node: _node, ...props }: ComponentProps<'input'> & ExtraProps) {
  const { t } = useTranslation('shell');
  if (props.type !== 'checkbox') return <input {...props} />;
  return (
    <input
      type="checkbox"
      checked={Boolean(props.checked)}
      disabled
      aria-label={props.checked ? t('noteLink.taskDone') : t('noteLink.taskOpen')}
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

/**
 * A linked note's text rendered from Markdown (GFM, no raw HTML), read-only: loaded with the
 * popup, so the shell's first page does not carry a Markdown renderer.
 */
export default function NoteMarkdown({ text }: { text: string }) {
  return (
    <div className="ui-prose note-link-text">
      <Markdown remarkPlugins={plugins} components={{ input: TaskBox, a: Anchor }}>
        {text}
      </Markdown>
    </div>
  );
}
