import { Fragment } from 'react';

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the character references of HTML-escaped text; anything unknown stays as written. */
export const decodeEntities = (text: string): string =>
  text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return named[name] ?? whole;
    const hex = name[1] === 'x' || name[1] === 'X';
    const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

export interface HighlightPart {
  text: string;
  marked: boolean;
}

/**
 * Splits a search highlight, HTML-escaped text with <mark></mark> around the matches, into
 * plain text parts. Nothing else in it is markup: any other tag ends up as text.
 */
export const highlightParts = (html: string): HighlightPart[] => {
  const parts: HighlightPart[] = [];
  let marked = false;
  for (const piece of html.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece) parts.push({ text: decodeEntities(piece), marked });
  }
  return parts;
};

/** A highlight from the search as React text nodes, the matches in <mark>. */
export function Highlighted({ html }: { html: string }) {
  return (
    <>
      {highlightParts(html).map((part, index) =>
        part.marked ? (
          <mark key={index}>{part.text}</mark>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
