import type { WriterAction } from '@noted/api';
import type { EditorSelection } from '../../note/editor';

/** What the AI writer offers: the service's writer actions, and a free question (Ask AI). */
export type WriterCommand = WriterAction | 'ask';

export const writerCommands: readonly WriterCommand[] = [
  'continue',
  'rewrite',
  'shorten',
  'expand',
  'fix_grammar',
  'translate',
  'ask',
];

/** Where an accepted answer goes. */
export type WriterTarget =
  /** In place of `original`, found at from..to when asked (the whole note when nothing was selected). */
  | { kind: 'replace'; from: number; to: number; original: string; wholeNote: boolean }
  /** At the cursor; `before` is the text just before it, to find the spot again after edits. */
  | { kind: 'insert'; at: number; before: string }
  | { kind: 'append' };

/** The most text the service takes in one request. */
export const MAX_TEXT = 100_000;
const CONTEXT_CHARS = 200;

/**
 * Where the answer to `command` will go: Continue writes on at the cursor, Ask AI adds to the
 * end, the others work on the selection, or on the whole note when nothing is selected.
 */
export const targetFor = (
  command: WriterCommand,
  text: string,
  selection: EditorSelection,
): WriterTarget => {
  const from = Math.min(selection.from, selection.to, text.length);
  const to = Math.min(Math.max(selection.from, selection.to), text.length);
  if (command === 'ask') return { kind: 'append' };
  if (command === 'continue') {
    return { kind: 'insert', at: to, before: text.slice(Math.max(0, to - CONTEXT_CHARS), to) };
  }
  if (from === to) {
    return { kind: 'replace', from: 0, to: text.length, original: text, wholeNote: true };
  }
  return { kind: 'replace', from, to, original: text.slice(from, to), wholeNote: false };
};

/** The text the writer works on for `target`: the selection, or what comes before the cursor. */
export const sourceText = (text: string, target: WriterTarget): string => {
  if (target.kind === 'replace') return target.original.slice(0, MAX_TEXT);
  if (target.kind === 'insert') return text.slice(Math.max(0, target.at - MAX_TEXT), target.at);
  return text.slice(0, MAX_TEXT);
};

const leadingSpace = (text: string) => /^\s*/.exec(text)?.[0] ?? '';
const trailingSpace = (text: string) => /\s*$/.exec(text)?.[0] ?? '';

/**
 * The note with `answer` put where it was asked for, in the note as it is now (it may have been
 * edited meanwhile); undefined when the selected text or the cursor's spot is gone.
 */
export const applyAnswer = (
  text: string,
  target: WriterTarget,
  answer: string,
): string | undefined => {
  const written = answer.trim();
  if (target.kind === 'append') {
    const body = text.trimEnd();
    return body ? `${body}\n\n${written}` : written;
  }
  if (target.kind === 'replace') {
    const { original } = target;
    const at =
      text.slice(target.from, target.to) === original ? target.from : text.indexOf(original);
    if (at === -1 || (original.trim() === '' && text.trim() !== '')) return undefined;
    // The selection's own surrounding spaces and line breaks stay.
    const replacement = `${leadingSpace(original)}${written}${trailingSpace(original)}`;
    return `${text.slice(0, at)}${replacement}${text.slice(at + original.length)}`;
  }
  const { before } = target;
  const at = text.slice(0, target.at).endsWith(before)
    ? target.at
    : before
      ? text.lastIndexOf(before) + before.length
      : 0;
  if (at < before.length) return undefined;
  const continued = answer.trimEnd();
  const joined =
    at > 0 && /\S$/.test(text.slice(0, at)) && /^\S/.test(continued) ? ` ${continued}` : continued;
  return `${text.slice(0, at)}${joined}${text.slice(at)}`;
};
