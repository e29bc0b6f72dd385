import type { ComponentProps } from 'react';
import Markdown from 'react-markdown';
import type { Components, ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkWikiLinks } from '../note/markdown';

/** The most of a body the card renders; the rest is cut off by the card's height anyway. */
const MAX_BODY = 1500;

/** A heading inside the card reads as a bold line: the card's own title is its heading. */
function Heading({ node: _node, children }: ComponentProps<'h2'> & ExtraProps) {
  return <p className="review-excerpt-heading">{children}</p>;
}

function Anchor({ node: _node, children, ...props }: ComponentProps<'a'> & ExtraProps) {
  return (
    <a {...props} rel="noopener noreferrer">
      {children}
    </a>
  );
}

const components: Components = {
  h1: Heading,
  h2: Heading,
  h3: Heading,
  h4: Heading,
  h5: Heading,
  h6: Heading,
  a: Anchor,
  img: () => null,
};
const remarkPlugins = [remarkGfm, remarkWikiLinks];

const headingLine = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/** The body without a first heading that only repeats the title, and not too long to render. */
export const excerptBody = (body: string, title: string): string => {
  let text = body.trimStart();
  const [first = '', ...rest] = text.split('\n');
  const heading = headingLine.exec(first);
  if (heading && heading[1]?.trim().toLowerCase() === title.trim().toLowerCase()) {
    text = rest.join('\n').trimStart();
  }
  if (text.length <= MAX_BODY) return text;
  const cut = text.slice(0, MAX_BODY);
  const lastBreak = cut.lastIndexOf('\n');
  return lastBreak > MAX_BODY / 2 ? cut.slice(0, lastBreak) : cut;
};

/** The start of a note's body, rendered from Markdown (no raw HTML, no images), read-only. */
export function ReviewExcerpt({ body, title }: { body: string; title: string }) {
  const text = excerptBody(body, title);
  if (!text) return null;
  return (
    <div className="review-excerpt">
      <Markdown remarkPlugins={remarkPlugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
