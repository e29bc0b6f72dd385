/** One GFM task list item of a note body. */
export interface TaskItem {
  /** The nth checkbox of the body, counting from 0 in document order. */
  index: number;
  /** 0-based line number. */
  line: number;
  text: string;
  done: boolean;
  /** Where the state character (the space or x between the brackets) sits in the body. */
  offset: number;
}

/**
 * A list item (bullet `-*+` or ordered `1.`/`1)`), any indentation, then `[ ]`, `[x]` or
 * `[X]`, whitespace and some text, as GitHub renders a checkbox.
 */
const TASK = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[)([ xX])\][ \t]+(\S.*?)[ \t]*$/;
/** A fence, also one that opens right after a list marker (`- ```js`). */
const FENCE_OPEN = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})(.*)$/;

interface Fence {
  char: string;
  length: number;
}

/** Whether a line opens a fenced code block (a backtick fence's info has no backtick). */
const fenceOpening = (line: string): Fence | undefined => {
  const match = FENCE_OPEN.exec(line);
  const marker = match?.[1];
  if (!marker) return undefined;
  const char = marker.charAt(0);
  if (char === '`' && (match[2] ?? '').includes('`')) return undefined;
  return { char, length: marker.length };
};

/** A closing fence: the same character, at least as long as the opening, nothing after. */
const closesFence = (line: string, fence: Fence) => {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && [...trimmed].every((c) => c === fence.char);
};

/**
 * The task list items of a Markdown body in document order. Lines inside fenced code blocks
 * (``` or ~~~, closed by a fence at least as long, or running to the end) are not items; a
 * checkbox in inline code never starts a line's list item, so it is not one either.
 */
export const parseTasks = (body: string): TaskItem[] => {
  const tasks: TaskItem[] = [];
  let fence: Fence | undefined;
  let lineStart = 0;
  const lines = body.split('\n');
  for (const [number, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (fence) {
      if (closesFence(line, fence)) fence = undefined;
    } else {
      fence = fenceOpening(line);
      const match = fence ? undefined : TASK.exec(line);
      if (match) {
        const [, prefix = '', state = ' ', text = ''] = match;
        tasks.push({
          index: tasks.length,
          line: number,
          text,
          done: state !== ' ',
          offset: lineStart + prefix.length,
        });
      }
    }
    lineStart += raw.length + 1;
  }
  return tasks;
};

/**
 * The body with one checkbox set to done or open. Only the character between the brackets
 * changes; a checkbox already in that state keeps its character (`X` stays `X`).
 */
export const setTaskState = (body: string, task: TaskItem, done: boolean): string => {
  if (task.done === done) return body;
  return `${body.slice(0, task.offset)}${done ? 'x' : ' '}${body.slice(task.offset + 1)}`;
};
