import type { GlyphRun } from 'fontkit';
import { createRequire } from 'node:module';
import { FONT_FEATURES, type FontKey, type FontSet } from './fonts.js';

/** linebreak (the Unicode line breaking algorithm, UAX #14) ships no types: typed here. */
type LineBreakerClass = new (text: string) => {
  nextBreak(): { position: number; required: boolean } | null;
};
const LineBreaker = createRequire(import.meta.url)('linebreak') as LineBreakerClass;

/** The face a run asks for; a character that face lacks falls back (see `faceFor`). */
export type Face = 'sans' | 'bold' | 'mono';

export interface TextStyle {
  face: Face;
  size: number;
  color: string;
  italic?: boolean;
  strike?: boolean;
  underline?: boolean;
  link?: string;
  /** A chip behind the text (inline code, tags), `pad` wider on each side. */
  background?: string;
  pad?: number;
}

export interface Span {
  text: string;
  style: TextStyle;
}

const FALLBACKS: Record<Face, FontKey[]> = {
  sans: ['sans', 'latin', 'emoji'],
  bold: ['bold', 'latinBold', 'emoji'],
  mono: ['mono', 'sans', 'latin', 'emoji'],
};

/** Text in one face and one style, placed on a line: x is where its glyphs start. */
export interface Piece {
  text: string;
  font: FontKey;
  style: TextStyle;
  x: number;
  width: number;
  /** The chip's padding before and after, when the piece starts or ends its span. */
  padStart: number;
  padEnd: number;
}

export interface Line {
  pieces: Piece[];
  width: number;
}

interface Atom {
  text: string;
  font: FontKey;
  style: TextStyle;
  width: number;
  padStart: number;
  padEnd: number;
}

interface Segment {
  atoms: Atom[];
  width: number;
  /** Width of the white space it ends with, which hangs past the end of a line. */
  trailing: number;
  required: boolean;
}

const MARK = /^\p{M}$/u;

/** A character that belongs to the cluster before it (joiners, selectors, marks, skin tones). */
const joins = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return (
    code === 0x200c ||
    code === 0x200d ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0x1f3fb && code <= 0x1f3ff) ||
    (code >= 0xe0020 && code <= 0xe007f) ||
    MARK.test(char)
  );
};

/**
 * Lays text out in lines with the shipped faces: Unicode line breaking (UAX #14: Chinese
 * breaks between any two characters, never before closing punctuation such as ，。） or after
 * opening), each character in the first face that has it, widths from the fonts' own shaping
 * (the same fontkit layout pdfkit draws with, so measured and drawn text agree).
 */
export class Typesetter {
  private readonly runs = new Map<string, GlyphRun>();
  private readonly faces = new Map<string, FontKey>();

  constructor(readonly fonts: FontSet) {}

  /** Shaped glyphs of text in one font (cached for the render). */
  shape(text: string, font: FontKey): GlyphRun {
    const key = `${font}\u0000${text}`;
    let run = this.runs.get(key);
    if (!run) {
      run = this.fonts[font].layout(text, FONT_FEATURES[font]);
      this.runs.set(key, run);
    }
    return run;
  }

  width(text: string, font: FontKey, size: number): number {
    if (!text) return 0;
    return (this.shape(text, font).advanceWidth / this.fonts[font].unitsPerEm) * size;
  }

  /** The font that draws this character: the face asked for, then Noto Sans, then emoji. */
  faceFor(char: string, face: Face): FontKey {
    const key = `${face}${char}`;
    const known = this.faces.get(key);
    if (known) return known;
    const codePoint = char.codePointAt(0) ?? 0;
    const order = FALLBACKS[face];
    const font = order.find((candidate) => this.fonts[candidate].hasGlyphForCodePoint(codePoint));
    const chosen = font ?? face;
    this.faces.set(key, chosen);
    return chosen;
  }

  /** The text cut where the font drawing it changes. */
  private byFont(text: string, face: Face): { text: string; font: FontKey }[] {
    const out: { text: string; font: FontKey }[] = [];
    for (const char of text) {
      const last = out[out.length - 1];
      // White space takes the face asked for (an emoji font's space is as wide as an emoji).
      const font = last && joins(char) ? last.font : this.faceFor(char, face);
      if (last && last.font === font) last.text += char;
      else out.push({ text: char, font });
    }
    return out;
  }

  /** The spans broken into lines no wider than `maxWidth` (a word longer than that is cut). */
  layout(spans: readonly Span[], maxWidth: number): Line[] {
    return this.fill(this.segments(spans), maxWidth);
  }

  /** The width of the widest word: the narrowest the spans can be set without cutting one. */
  minWidth(spans: readonly Span[]): number {
    return Math.max(0, ...this.segments(spans).map((segment) => segment.width - segment.trailing));
  }

  private segments(spans: readonly Span[]): Segment[] {
    const starts: number[] = [];
    let text = '';
    for (const span of spans) {
      starts.push(text.length);
      text += span.text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
    }
    if (!text) return [];
    const segments: Segment[] = [];
    const breaker = new LineBreaker(text);
    let from = 0;
    for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
      segments.push(this.segment(spans, starts, text, from, next.position, next.required));
      from = next.position;
    }
    return segments;
  }

  private segment(
    spans: readonly Span[],
    starts: readonly number[],
    text: string,
    from: number,
    to: number,
    required: boolean,
  ): Segment {
    const atoms: Atom[] = [];
    spans.forEach((span, index) => {
      const spanStart = starts[index] ?? 0;
      const spanEnd = starts[index + 1] ?? text.length;
      const start = Math.max(from, spanStart);
      const end = Math.min(to, spanEnd);
      if (start >= end) return;
      const part = text.slice(start, end).replace(/\n/g, '');
      const pad = span.style.pad ?? 0;
      const pieces = this.byFont(part, span.style.face);
      pieces.forEach((piece, i) => {
        const padStart = i === 0 && start === spanStart ? pad : 0;
        const padEnd = i === pieces.length - 1 && end === spanEnd ? pad : 0;
        atoms.push({
          text: piece.text,
          font: piece.font,
          style: span.style,
          width: this.width(piece.text, piece.font, span.style.size) + padStart + padEnd,
          padStart,
          padEnd,
        });
      });
    });
    const width = atoms.reduce((sum, atom) => sum + atom.width, 0);
    const last = atoms[atoms.length - 1];
    let trailing = 0;
    if (last && !last.padEnd) {
      const spaces = /\s*$/u.exec(last.text)?.[0] ?? '';
      trailing = this.width(spaces, last.font, last.style.size);
    }
    return { atoms, width, trailing, required };
  }

  /** A segment too wide for a line, cut into its characters. */
  private characters(segment: Segment): Segment[] {
    const out: Segment[] = [];
    for (const atom of segment.atoms) {
      const clusters: string[] = [];
      for (const char of atom.text) {
        if (clusters.length > 0 && joins(char)) clusters[clusters.length - 1] += char;
        else clusters.push(char);
      }
      clusters.forEach((cluster, i) => {
        const padStart = i === 0 ? atom.padStart : 0;
        const padEnd = i === clusters.length - 1 ? atom.padEnd : 0;
        const width = this.width(cluster, atom.font, atom.style.size) + padStart + padEnd;
        const piece: Atom = { ...atom, text: cluster, width, padStart, padEnd };
        out.push({ atoms: [piece], width, trailing: 0, required: false });
      });
    }
    const last = out[out.length - 1];
    if (last) last.required = segment.required;
    return out;
  }

  private fill(segments: readonly Segment[], maxWidth: number): Line[] {
    const lines: Line[] = [];
    let atoms: Atom[] = [];
    let width = 0;
    const end = () => {
      lines.push(this.line(atoms));
      atoms = [];
      width = 0;
    };
    const place = (segment: Segment) => {
      if (atoms.length > 0 && width + segment.width - segment.trailing > maxWidth + 0.01) end();
      if (atoms.length === 0 && segment.width - segment.trailing > maxWidth + 0.01) {
        if (segment.atoms.some((atom) => [...atom.text].length > 1)) {
          for (const part of this.characters(segment)) place(part);
          return;
        }
      }
      atoms.push(...segment.atoms);
      width += segment.width;
      if (segment.required) end();
    };
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      // The break after the last segment ends the text, not a line of its own.
      place(last ? { ...segment, required: false } : segment);
    });
    if (atoms.length > 0) end();
    return lines;
  }

  /** Atoms as pieces at their places, the white space at the line's end dropped. */
  private line(atoms: Atom[]): Line {
    const trimmed = [...atoms];
    for (let i = trimmed.length - 1; i >= 0; i--) {
      const atom = trimmed[i];
      if (!atom || atom.padEnd) break;
      const text = atom.text.replace(/\s+$/u, '');
      if (text === atom.text) break;
      if (text) {
        trimmed[i] = { ...atom, text };
        break;
      }
      trimmed.splice(i, 1);
    }
    const pieces: Piece[] = [];
    for (const atom of trimmed) {
      const last = pieces[pieces.length - 1];
      if (
        last &&
        last.font === atom.font &&
        last.style === atom.style &&
        !last.padEnd &&
        !atom.padStart
      ) {
        last.text += atom.text;
        last.padEnd = atom.padEnd;
      } else {
        pieces.push({ ...atom, x: 0, width: 0 });
      }
    }
    // Each piece measured whole, as it is drawn: kerning across the breaks inside it counts.
    let x = 0;
    for (const piece of pieces) {
      piece.x = x + piece.padStart;
      piece.width = this.width(piece.text, piece.font, piece.style.size);
      x = piece.x + piece.width + piece.padEnd;
    }
    return { pieces, width: x };
  }
}
