/**
 * Block containers (quotes, list items) nested deeper than this are never parsed: a Markdown
 * reader's time grows with the square of the nesting (100,000 `>` took one 168 s and its
 * memory), and nothing a person writes nests a tenth as deep.
 */
export const MARKDOWN_MAX_DEPTH = 32;

/** A quote or list marker opening a container: `>`, `-`, `+`, `*`, `1.`, `1)`. */
const MARKER = /[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/y;
const FENCE = /^[ \t>]*(`{3,}|~{3,})/;

/**
 * How deeply the text's block containers nest, as far as a cheap look at each line's start
 * tells (fenced code skipped): the markers opening the line, and for a line that opens one, its
 * indentation in steps of two (how nested lists are written). Stops counting past `limit`.
 */
export const markdownDepth = (text: string, limit = MARKDOWN_MAX_DEPTH): number => {
  let deepest = 0;
  let fence: string | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const opened = FENCE.exec(text.slice(lineStart, Math.min(lineEnd, lineStart + 200)))?.[1];
    if (fence !== undefined) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) {
        fence = undefined;
      }
    } else {
      let markers = 0;
      let at = lineStart;
      MARKER.lastIndex = at;
      while (at < lineEnd && MARKER.exec(text) !== null) {
        markers += 1;
        at = MARKER.lastIndex;
        if (markers > limit) return markers;
        MARKER.lastIndex = at;
      }
      if (markers > 0) {
        let indent = 0;
        for (let i = lineStart; i < lineEnd && (text[i] === ' ' || text[i] === '\t'); i += 1) {
          indent += text[i] === '\t' ? 4 : 1;
        }
        deepest = Math.max(deepest, markers + Math.floor(indent / 2));
        if (deepest > limit) return deepest;
      }
      if (opened !== undefined) fence = opened;
    }
    lineStart = lineEnd + 1;
  }
  return deepest;
};
