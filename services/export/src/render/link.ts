/** The only schemes an exported document may open; a note is the user's, a PDF goes anywhere. */
const LIVE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * The target a rendered link may carry, or undefined when the link is to be shown as its text
 * only. Decided by the WHATWG URL parser, the one browsers and PDF viewers follow: it lower-cases
 * the scheme and drops the spaces, controls, tabs and newlines that would hide one
 * (` JaVaScRiPt:`, `java\tscript:`), and a relative address has nothing to be relative to. What
 * it returns is the parsed form, so the document holds exactly the address judged here.
 */
export const liveLink = (url: string): string | undefined => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return LIVE_SCHEMES.has(parsed.protocol) ? parsed.href : undefined;
};
