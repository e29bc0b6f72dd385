import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef, useState } from 'react';
import type { MarkdownEditorProps } from './editor';
import { editorTheme } from './editorTheme';
import { slashCommandCompletions } from './slashCompletion';
import { WIKI_LOOKUP_DELAY_MS, wikiLinkCompletions } from './wikiCompletion';

/** The part of `next` that differs from `doc`, as one change, so the cursor and history stay. */
const difference = (doc: string, next: string) => {
  let start = 0;
  const shorter = Math.min(doc.length, next.length);
  while (start < shorter && doc[start] === next[start]) start += 1;
  let end = 0;
  while (end < shorter - start && doc[doc.length - 1 - end] === next[next.length - 1 - end]) {
    end += 1;
  }
  return { from: start, to: doc.length - end, insert: next.slice(start, next.length - end) };
};

/**
 * The Markdown editor of a note: highlighting, line wrapping, undo, `[[` completion and the `/`
 * menu; it tells where the selection is, on screen too.
 */
export default function CodeMirrorEditor({
  labelId,
  value,
  onChange,
  onBlur,
  findTitles,
  titleSuggestionLabel,
  onSelectionChange,
  slashCommands,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(undefined);
  const handlers = useRef({
    onChange,
    onBlur,
    findTitles,
    titleSuggestionLabel,
    onSelectionChange,
    slashCommands,
  });

  useEffect(() => {
    handlers.current = {
      onChange,
      onBlur,
      findTitles,
      titleSuggestionLabel,
      onSelectionChange,
      slashCommands,
    };
  });

  // The view is made once; the value it starts with is the note as opened.
  const [initialValue] = useState(value);
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const created = new EditorView({
      parent,
      state: EditorState.create({
        doc: initialValue,
        extensions: [
          history(),
          markdown({ completeHTMLTags: false }),
          editorTheme,
          EditorView.lineWrapping,
          autocompletion({
            override: [
              wikiLinkCompletions(
                (query, signal) => handlers.current.findTitles(query, signal),
                WIKI_LOOKUP_DELAY_MS,
                () => handlers.current.titleSuggestionLabel,
              ),
              slashCommandCompletions(() => handlers.current.slashCommands ?? []),
            ],
            icons: false,
          }),
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({
            'aria-labelledby': labelId,
            'aria-multiline': 'true',
            spellcheck: 'true',
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
            if (!update.docChanged && !update.selectionSet) return;
            const { from, to } = update.state.selection.main;
            // The layout may not be read during an update: the position is measured after it.
            update.view.requestMeasure({
              read: (measured) => measured.coordsAtPos(to) ?? undefined,
              write: (point) => handlers.current.onSelectionChange?.({ from, to }, point),
            });
          }),
          EditorView.domEventHandlers({
            blur: () => {
              handlers.current.onBlur();
            },
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = undefined;
    };
  }, [initialValue, labelId]);

  // A change made elsewhere (a checkbox ticked in the preview, an AI answer accepted) comes
  // into the editor, the cursor after it as after a paste.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const doc = editor.state.doc.toString();
    if (doc === value) return;
    const change = difference(doc, value);
    editor.dispatch({ changes: change, selection: { anchor: change.from + change.insert.length } });
  }, [value]);

  return <div ref={host} className="note-editor" />;
}
