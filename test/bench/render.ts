/**
 * The export renderers' benchmark: a PDF of a long note (about 3,000 words of mixed Chinese
 * and English, tables, code) with five images, and the note's PNG card, each timed and with
 * the process's peak memory, against baselines in the same run that do only part of the work:
 * parsing the Markdown to mdast, and decoding the five images with sharp.
 *
 *   npm run bench:render
 *
 * BENCH_RUNS sets the runs per figure (5; the median is printed). Figures, not assertions.
 */
import { renderNoteCard } from '../../services/export/src/render/image.js';
import { parseMarkdown } from '../../services/export/src/render/markdown.js';
import { renderNotePdf } from '../../services/export/src/render/pdf.js';
import {
  longBody,
  sampleImages,
  sampleNote,
} from '../../services/export/src/render/test/fixtures.js';
import sharp from 'sharp';
import { mb, resetHighWater, statusKb } from './proc.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface Figure {
  what: string;
  first: number;
  median: number;
  peakMb: number;
  /** Peak RSS above what the process held when the figure began. */
  growthMb: number;
  output: string;
}

/** The first run (cold: fonts read, code compiled) and the median of `runs`, with peak RSS. */
const measure = async (what: string, work: () => Promise<string>): Promise<Figure> => {
  (globalThis as { gc?: () => void }).gc?.();
  resetHighWater(process.pid);
  const start = statusKb(process.pid, 'VmRSS') ?? 0;
  const times: number[] = [];
  let output = '';
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    output = await work();
    times.push(performance.now() - started);
  }
  const peak = statusKb(process.pid, 'VmHWM') ?? 0;
  const figure = { first: times[0] ?? 0, median: median(times), peakMb: mb(peak) };
  return { what, ...figure, growthMb: mb(peak - start), output };
};

const body = longBody();
const note = sampleNote(body);
const images = await sampleImages();
const english = body.match(/[A-Za-z]+/g)?.length ?? 0;
const chinese = body.match(/[\u4e00-\u9fff]/g)?.length ?? 0;
console.log(
  `Note: ${english} English words and ${chinese} Chinese characters, ${body.length} characters, ` +
    `${images.length} images (${Math.round(images.reduce((sum, image) => sum + image.bytes.length, 0) / 1024)} KB). ` +
    `Runs: ${runs}. RSS at start: ${mb(statusKb(process.pid, 'VmRSS') ?? 0)} MB.`,
);

const figures: Figure[] = [];
figures.push(
  await measure('baseline: Markdown to mdast', async () => {
    const root = parseMarkdown(body);
    return `${root.children.length} blocks`;
  }),
);
figures.push(
  await measure('baseline: decode the 5 images (sharp)', async () => {
    let pixels = 0;
    for (const image of images) {
      const { info } = await sharp(image.bytes).raw().toBuffer({ resolveWithObject: true });
      pixels += info.width * info.height;
    }
    return `${(pixels / 1e6).toFixed(1)} Mpx`;
  }),
);
figures.push(
  await measure('PDF, long note + 5 images', async () => {
    const pdf = await renderNotePdf(note, images, { now: new Date('2026-03-06T00:00:00Z') });
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
    return `${pages} pages, ${Math.round(pdf.length / 1024)} KB`;
  }),
);
figures.push(
  await measure('PNG card (light), long note', async () => {
    const png = await renderNoteCard(note, images, { theme: 'light' });
    const { width, height } = await sharp(png).metadata();
    return `${width}×${height}, ${Math.round(png.length / 1024)} KB`;
  }),
);

const pad = (text: string, width: number) => text.padEnd(width);
console.log(
  `\n${pad('what', 40)}${pad('first ms', 10)}${pad('median ms', 11)}${pad('peak RSS MB', 13)}${pad('(+ growth)', 12)}output`,
);
for (const figure of figures) {
  console.log(
    `${pad(figure.what, 40)}${pad(String(Math.round(figure.first)), 10)}${pad(String(Math.round(figure.median)), 11)}${pad(String(figure.peakMb), 13)}${pad(`+${figure.growthMb}`, 12)}${figure.output}`,
  );
}
