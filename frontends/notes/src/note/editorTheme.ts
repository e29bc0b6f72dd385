import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * How Markdown looks while it is written: headings larger and bolder, emphasis as emphasis,
 * the marks (#, *, >, `) quiet, links in the accent colour; every colour a design token, so
 * the editor follows the light and dark theme without a second style.
 */
const markdownStyle = HighlightStyle.define([
  { tag: tags.heading1, fontSize: '1.5em', fontWeight: '700', color: 'var(--color-text-strong)' },
  { tag: tags.heading2, fontSize: '1.3em', fontWeight: '650', color: 'var(--color-text-strong)' },
  { tag: tags.heading3, fontSize: '1.15em', fontWeight: '600', color: 'var(--color-text-strong)' },
  {
    tag: [tags.heading4, tags.heading5, tags.heading6],
    fontWeight: '600',
    color: 'var(--color-text-strong)',
  },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through', color: 'var(--color-muted)' },
  { tag: [tags.link, tags.url], color: 'var(--color-accent-fg)' },
  { tag: tags.quote, color: 'var(--color-muted)', fontStyle: 'italic' },
  {
    tag: tags.monospace,
    fontFamily: 'var(--font-mono)',
    fontSize: '0.9em',
    color: 'var(--color-text)',
  },
  {
    tag: [tags.processingInstruction, tags.meta, tags.contentSeparator],
    color: 'var(--color-subtle)',
  },
  { tag: [tags.keyword, tags.atom, tags.bool], color: 'var(--color-info)' },
  { tag: [tags.string, tags.regexp], color: 'var(--color-success)' },
  { tag: [tags.number, tags.literal], color: 'var(--color-warning)' },
  { tag: tags.comment, color: 'var(--color-subtle)', fontStyle: 'italic' },
]);

/** The editor's chrome: caret, selection, gutters and the completion menu, from the tokens. */
const chrome = EditorView.theme({
  '&': { color: 'var(--color-text)', backgroundColor: 'transparent' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--color-accent)', borderLeftWidth: '2px' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'color-mix(in srgb, var(--color-accent) 24%, transparent) !important',
  },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-tooltip': {
    border: '1px solid var(--color-border)',
    borderRadius: 'var(--radius)',
    backgroundColor: 'var(--color-surface-raised)',
    boxShadow: 'var(--shadow-lg)',
    overflow: 'hidden',
  },
  '.cm-tooltip-autocomplete > ul': { fontFamily: 'var(--font-sans)', maxHeight: '16rem' },
  '.cm-tooltip-autocomplete > ul > li': { padding: '0.35rem 0.75rem !important' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': {
    backgroundColor: 'var(--color-accent-soft)',
    color: 'var(--color-accent-soft-text)',
  },
  '.cm-completionDetail': {
    color: 'var(--color-muted)',
    fontStyle: 'normal',
    marginLeft: '0.75em',
  },
});

export const editorTheme = [syntaxHighlighting(markdownStyle), chrome];
