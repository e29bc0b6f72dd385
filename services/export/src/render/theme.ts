/**
 * Colours from libs/ui/src/styles/tokens.css (the app's light and dark themes), as plain hex:
 * PDF colours take no alpha, so the tokens' translucent tints are mixed over their surface.
 */
export interface Palette {
  background: string;
  surface: string;
  text: string;
  strong: string;
  muted: string;
  subtle: string;
  border: string;
  borderStrong: string;
  accent: string;
  accentText: string;
  link: string;
  chip: string;
  chipText: string;
  codeBackground: string;
  tableHeader: string;
}

const hex = (value: number): string => value.toString(16).padStart(2, '0');

/** `color` at `alpha` over `under`, both #rrggbb. */
const over = (color: string, alpha: number, under: string): string => {
  const channel = (c: string, i: number) => parseInt(c.slice(1 + i * 2, 3 + i * 2), 16);
  return `#${[0, 1, 2]
    .map((i) => hex(Math.round(channel(color, i) * alpha + channel(under, i) * (1 - alpha))))
    .join('')}`;
};

export const LIGHT: Palette = {
  background: '#f9fafb',
  surface: '#ffffff',
  text: '#111827',
  strong: '#030712',
  muted: '#4b5563',
  subtle: '#6b7280',
  border: '#e5e7eb',
  borderStrong: '#d1d5db',
  accent: '#15803d',
  accentText: '#ffffff',
  link: '#15803d',
  chip: '#dcfce7',
  chipText: '#166534',
  codeBackground: '#f3f4f6',
  tableHeader: '#f3f4f6',
};

export const DARK: Palette = {
  background: '#101318',
  surface: '#161a20',
  text: '#e6e8ec',
  strong: '#f7f8fa',
  muted: '#a3aab6',
  subtle: '#7c8493',
  border: '#262b34',
  borderStrong: '#343a45',
  accent: '#22c55e',
  accentText: '#052e16',
  link: '#4ade80',
  chip: over('#22c55e', 0.14, '#161a20'),
  chipText: '#86efac',
  codeBackground: '#0d1014',
  tableHeader: '#1c2129',
};

/** Paper: the light theme, text a shade darker for print. */
export const PRINT: Palette = { ...LIGHT, surface: '#ffffff', text: '#1f2937' };

/** The Noted mark (the app icon's N on its green tile), in a 512 unit square. */
export const MARK_PATH = 'M160 368V144h42l108 154V144h42v224h-42L202 214v154z';
export const MARK_RADIUS = 120;

/**
 * The type scale both renderers share: sizes are multiples of the body size, spaces multiples
 * of it too, so the PDF (10.5 pt body) and the card (30 px) are the same design at two sizes.
 */
export const SCALE = {
  title: 2.15,
  titleLeading: 1.25,
  heading: [1.75, 1.45, 1.2, 1.05, 1, 0.95] as const,
  headingLeading: 1.35,
  headingSpace: [1.7, 1.5, 1.25, 1.1, 1, 1] as const,
  afterHeading: 0.45,
  leading: 1.65,
  paragraphSpace: 0.8,
  tightSpace: 0.25,
  meta: 0.85,
  code: 0.86,
  codeLeading: 1.5,
  codePadX: 0.9,
  codePadY: 0.65,
  table: 0.9,
  tableLeading: 1.45,
  cellPadX: 0.6,
  cellPadY: 0.4,
  listIndent: 1.7,
  quoteIndent: 1.15,
  quoteBar: 0.22,
  chipPad: 0.3,
};
