import { readFile } from 'node:fs/promises';
import * as fontkit from 'fontkit';

/** The faces the renderers set text in, shipped in services/export/fonts (see its README). */
export const FONT_FILES = {
  sans: 'NotoSansSC-Regular.ttf',
  bold: 'NotoSansSC-Bold.ttf',
  mono: 'JetBrainsMono-Regular.ttf',
  /** Latin, Greek and Cyrillic that Noto Sans SC lacks (ą, ł, ğ, ř, ά, ...). */
  latin: 'NotoSans-Regular.ttf',
  latinBold: 'NotoSans-Bold.ttf',
  emoji: 'NotoEmoji-Regular.ttf',
} as const;

export type FontKey = keyof typeof FONT_FILES;

export const FONT_KEYS = Object.keys(FONT_FILES) as FontKey[];

/**
 * OpenType features turned off per face: JetBrains Mono's contextual ligatures (`=>`, `!=`)
 * make fontkit read past its glyph table, and code should print the characters as typed.
 */
export const FONT_FEATURES: Partial<Record<FontKey, Record<string, boolean>>> = {
  mono: { calt: false, liga: false },
};

/** From src/render and from dist/render alike. */
const FONT_DIR = new URL('../../fonts/', import.meta.url);

export type FontData = Record<FontKey, Buffer>;

let loading: Promise<FontData> | undefined;

/** The font files, read once per process (23 MB, shared by every render). */
export const loadFontData = (): Promise<FontData> => {
  loading ??= Promise.all(
    FONT_KEYS.map(async (key) => [key, await readFile(new URL(FONT_FILES[key], FONT_DIR))]),
  ).then(
    (entries) => Object.fromEntries(entries) as FontData,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
};

/**
 * Parsed faces for one render. fontkit caches every glyph it touches on the font object, so
 * each render parses its own (a few milliseconds: tables are read lazily) and lets the cache go
 * with it, rather than a long-lived font growing towards all 30,000 CJK glyphs.
 */
export type FontSet = Record<FontKey, fontkit.Font>;

export const openFonts = (data: FontData): FontSet =>
  Object.fromEntries(
    FONT_KEYS.map((key) => {
      const font = fontkit.create(data[key]);
      if (!('unitsPerEm' in font)) throw new Error(`${FONT_FILES[key]} is a font collection`);
      return [key, font];
    }),
  ) as FontSet;
