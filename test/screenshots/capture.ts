/**
 * The capture screens: the Capture menu, each way in (image, audio with its three tabs, link,
 * PDF), and captured notes as they are read and once read, failed or waiting for a model. The
 * notes are made through the UI against the running server (local OCR, PDF text, no
 * transcription model), so what the pictures show is what a user gets on embedded defaults.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { pdfWithText, reportPages, wavTone } from '../../libs/testing/src/files.js';
import type { Shot } from './shots.js';

const at = (route: string) => (): string => route;

const openCapture = async (page: Page, entry: string) => {
  await page.getByRole('button', { name: 'Capture' }).click();
  await page.getByRole('menuitem', { name: entry }).click();
  await page.getByRole('dialog').waitFor();
};

/**
 * Sends what the dialog holds and waits until the new note's page shows `until` and, unless
 * the shot is of the reading itself, until the reading is over (the text may also be in an
 * older note shown beside it).
 */
const create = async (page: Page, until: RegExp, { reading = false } = {}) => {
  await page.getByRole('dialog').getByRole('button', { name: 'Create note' }).click();
  await page.waitForURL(/\/notes\/[0-9a-f-]{36}$/, { timeout: 45_000 });
  // The note's own page, not the list it came from, which may show older notes' text.
  await page.locator('.note-body').first().waitFor({ timeout: 45_000 });
  await page.getByText(until).first().waitFor({ timeout: 45_000 });
  if (!reading)
    await page.locator('.capture-status').waitFor({ state: 'detached', timeout: 45_000 });
};

const whiteboard = async () => {
  const lines = ['Launch checklist', '1. Freeze the API on Monday', '2. Write the release notes'];
  const text = lines
    .map((line, index) => `<text x="60" y="${110 + index * 70}">${line}</text>`)
    .join('');
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="360">' +
    '<rect width="100%" height="100%" fill="#f8f8f4"/>' +
    `<g font-family="DejaVu Sans" font-size="46" fill="#1d3557">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
};

const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

/** Opens a menu entry's dialog and gives it a file. */
const choose = async (page: Page, entry: string, chosen: ReturnType<typeof file>) => {
  await openCapture(page, entry);
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(chosen);
};

export const captureShots: Shot[] = [
  {
    name: 'capture-menu',
    path: at('/'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Capture' }).click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'capture-image-dialog',
    path: at('/'),
    act: async (page) => {
      await choose(page, 'Photo or image', file('whiteboard.png', 'image/png', await whiteboard()));
      await page.getByRole('img', { name: 'The image chosen' }).waitFor();
    },
  },
  {
    name: 'capture-image-note',
    path: at('/'),
    act: async (page) => {
      await choose(page, 'Photo or image', file('whiteboard.png', 'image/png', await whiteboard()));
      await create(page, /Write the release notes/);
    },
  },
  {
    name: 'capture-record',
    path: at('/'),
    act: async (page) => {
      await openCapture(page, 'Record voice');
    },
  },
  {
    name: 'capture-recording',
    path: at('/'),
    act: async (page) => {
      await openCapture(page, 'Record voice');
      await page.getByRole('button', { name: 'Start recording' }).click();
      await page.getByRole('button', { name: 'Stop & save' }).waitFor();
      await page.waitForTimeout(2_500);
    },
  },
  {
    name: 'capture-audio-waiting',
    path: at('/'),
    act: async (page) => {
      await choose(page, 'Audio file', file('standup.wav', 'audio/wav', wavTone(3)));
      await create(page, /speech-to-text model/i);
    },
  },
  {
    name: 'capture-link-dialog',
    path: at('/'),
    act: async (page) => {
      await openCapture(page, 'Web page (link)');
      await page.getByRole('dialog').getByRole('textbox').fill('https://example.com/article');
    },
  },
  {
    // A private address is refused by the server, after the note is made: the failed state.
    name: 'capture-link-failed',
    path: at('/'),
    act: async (page) => {
      await openCapture(page, 'Web page (link)');
      await page.getByRole('dialog').getByRole('textbox').fill('http://10.0.0.1/internal');
      await create(page, /Capture failed/);
    },
  },
  {
    // The moment after sending: the note exists and waits for its text.
    name: 'capture-pdf-processing',
    path: at('/'),
    act: async (page) => {
      await choose(
        page,
        'PDF',
        file('report.pdf', 'application/pdf', pdfWithText(['Quarterly report'])),
      );
      await create(page, /Download PDF/, { reading: true });
    },
  },
  {
    // 5 MB: large enough to go through an upload address (/api/config/s3credentials).
    name: 'capture-pdf-note',
    path: at('/'),
    act: async (page) => {
      await choose(
        page,
        'PDF',
        file(
          'field-guide.pdf',
          'application/pdf',
          pdfWithText(
            [
              'Field guide to garden birds\nThe robin sings all winter, even at night under lamps.',
              'The wren is small but loud. It nests in hedges and ivy.',
            ],
            { padBytes: 5 * 1024 * 1024 },
          ),
        ),
      );
      await create(page, /It nests in hedges/);
    },
  },
  {
    // A PDF with a topic of its own: its tags are offered under the note's, not given.
    name: 'capture-pdf-suggested',
    path: at('/'),
    act: async (page) => {
      await choose(
        page,
        'PDF',
        file('quarterly-report.pdf', 'application/pdf', pdfWithText(reportPages)),
      );
      await create(page, /Suggested tags/);
    },
  },
];
