import { existsSync, readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFHexString, StandardFonts, rgb } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfReader, type PdfReader } from './pdf.js';

const englishPages = [
  ['Quarterly budget review', 'Revenue grew by 12 percent this quarter.'],
  ['Hiring plan', 'Two engineers join the platform team in May.'],
  ['Open questions', 'Who owns the data retention policy?'],
];

/** A PDF with one page per entry, each line drawn in Helvetica as a word processor would. */
const textPdf = async (pages: string[][], title?: string): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  if (title) doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 770 - i * 24, size: 14, font }));
  }
  return doc.save();
};

// Debian's fonts-noto-cjk; pdf-lib embeds (a subset of) one font of the collection.
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

const chinesePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  doc.registerFontkit({
    create: (data: Uint8Array) => fontkit.create(data, 'NotoSansCJKsc-Regular'),
  });
  const font = await doc.embedFont(readFileSync(CJK_FONT), { subset: true });
  const page = doc.addPage([595, 842]);
  page.drawText('今天下午三点开会讨论预算', { x: 56, y: 770, size: 18, font });
  page.drawText('会议室在三楼', { x: 56, y: 740, size: 18, font });
  return doc.save();
};

/** Pages with drawings but no text, like a scan's pages. */
const blankPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 2; i++) {
    doc.addPage([595, 842]).drawRectangle({
      x: 50,
      y: 50,
      width: 400,
      height: 600,
      color: rgb(0.8, 0.8, 0.8),
    });
  }
  return doc.save();
};

/** A PDF written object by object, for what pdf-lib would not write (bombs, encryption). */
const rawPdf = (objects: (string | Buffer)[], trailer = ''): Uint8Array => {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    offsets.push(offset);
    chunks.push(object);
    offset += object.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R ${trailer} >>`,
    'startxref',
    String(offset),
    '%%EOF',
  ].join('\n');
  chunks.push(Buffer.from(xref));
  return new Uint8Array(Buffer.concat(chunks));
};

const stream = (dictionary: string, data: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(`<< /Length ${data.length} ${dictionary} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);

/** One page whose content stream is `content`, stored deflated `layers` times. */
const onePagePdf = (content: Buffer, layers: number): Uint8Array => {
  let data = content;
  for (let i = 0; i < layers; i++) data = deflateSync(data, { level: 9 });
  const filters = Array.from({ length: layers }, () => '/FlateDecode').join(' ');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R >> >> >>',
    stream(`/Filter [${filters}]`, data),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
};

/** 1.5 KB that inflates to 300 MB: the memory bomb. */
const inflateBomb = (): Uint8Array => {
  const content = Buffer.alloc(300 * 1024 * 1024, ' ');
  content.write('BT /F1 12 Tf 72 700 Td (Bomb) Tj ET\n');
  return onePagePdf(content, 2);
};

/** Small once inflated (30 MB) but millions of operators: the time bomb. */
const operatorBomb = (): Uint8Array => onePagePdf(Buffer.from('q Q '.repeat(7_500_000)), 2);

describe('createPdfReader', () => {
  let reader: PdfReader;
  beforeAll(() => {
    reader = createPdfReader({ workers: 2 });
  });
  afterAll(async () => {
    await reader.close();
  });

  it('reads the text of each page and the title', async () => {
    const result = await reader.read(await textPdf(englishPages, 'Quarterly report'));
    expect(result).toEqual({
      pages: englishPages.map((lines) => lines.join('\n')),
      pageCount: 3,
      truncated: false,
      title: 'Quarterly report',
    });
  });

  it('reads a PDF handed over as a Buffer, as the capture gets it over gRPC', async () => {
    const bytes = Buffer.from(await textPdf(englishPages));
    expect((await reader.read(bytes)).pages).toHaveLength(3);
  });

  it.skipIf(!existsSync(CJK_FONT))('reads Chinese text set in an embedded font', async () => {
    const { pages } = await reader.read(await chinesePdf());
    expect(pages).toEqual(['今天下午三点开会讨论预算\n会议室在三楼']);
  });

  it('gives empty pages for a PDF without text', async () => {
    expect(await reader.read(await blankPdf())).toEqual({
      pages: ['', ''],
      pageCount: 2,
      truncated: false,
    });
  });

  it('stops at maxPages and at maxChars', async () => {
    const pages = Array.from({ length: 5 }, (_, i) => [`Page number ${i + 1}`]);
    const bounded = createPdfReader({ workers: 1, limits: { maxPages: 2 } });
    try {
      expect(await bounded.read(await textPdf(pages))).toEqual({
        pages: ['Page number 1', 'Page number 2'],
        pageCount: 5,
        truncated: true,
      });
    } finally {
      await bounded.close();
    }
    const short = createPdfReader({ workers: 1, limits: { maxChars: 20 } });
    try {
      expect(await short.read(await textPdf(pages))).toEqual({
        pages: ['Page number 1', 'Page nu'],
        pageCount: 5,
        truncated: true,
      });
    } finally {
      await short.close();
    }
  });

  it('refuses what is not a PDF', async () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    await expect(reader.read(garbage)).rejects.toMatchObject({
      code: 'NOT_A_PDF',
      message: 'The file given is not a PDF',
    });
    const headerOnly = new TextEncoder().encode('%PDF-1.7\nthis is not a document at all\n');
    await expect(reader.read(headerOnly)).rejects.toMatchObject({ code: 'NOT_A_PDF' });
  });

  it('refuses a password-protected PDF', async () => {
    const key = (byte: string) => `<${byte.repeat(32)}>`;
    const encrypted = rawPdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
        `<< /Filter /Standard /V 1 /R 2 /O ${key('ab')} /U ${key('cd')} /P -4 >>`,
      ],
      `/Encrypt 4 0 R /ID [${PDFHexString.of('0123456789abcdef').toString()} ${PDFHexString.of('0123456789abcdef').toString()}]`,
    );
    await expect(reader.read(encrypted)).rejects.toMatchObject({
      code: 'NOT_A_PDF',
      message: expect.stringMatching(/password-protected/),
    });
  });

  it('refuses a PDF over maxBytes', async () => {
    const small = createPdfReader({ workers: 1, limits: { maxBytes: 1000 } });
    try {
      await expect(small.read(await textPdf(englishPages))).rejects.toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
      });
    } finally {
      await small.close();
    }
  });

  describe('with small limits', () => {
    const readers: PdfReader[] = [];
    const boundedReader = (limits: { timeoutMs: number; memoryMb: number }) => {
      const bounded = createPdfReader({ workers: 1, limits });
      readers.push(bounded);
      return bounded;
    };
    afterAll(async () => {
      await Promise.all(readers.map((bounded) => bounded.close()));
    });

    it("ends a PDF bomb at its process's limits, then reads the next PDF", async () => {
      const bounded = boundedReader({ timeoutMs: 2000, memoryMb: 200 });
      for (const bomb of [inflateBomb(), operatorBomb()]) {
        expect(bomb.byteLength).toBeLessThan(4096);
        await expect(bounded.read(bomb)).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          message: 'The PDF is too complex to read',
          cause: expect.stringMatching(/^(timeout|memory)$/),
        });
        expect((await bounded.read(await textPdf(englishPages))).pages).toHaveLength(3);
      }
    });

    it('ends a stream that inflates past memoryMb, whatever the time limit', async () => {
      const bounded = boundedReader({ timeoutMs: 30_000, memoryMb: 200 });
      // Unbounded, the 300 MB stream took 1 GB of RSS; its process is killed at 200 MB (that
      // this process never holds what the sandbox's does, libs/sandbox's tests hold).
      await expect(bounded.read(inflateBomb())).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        cause: 'memory',
      });
      expect((await bounded.read(await textPdf(englishPages))).pages[0]).toContain('budget');
    });

    it('ends a document that takes longer than timeoutMs', async () => {
      const bounded = boundedReader({ timeoutMs: 1000, memoryMb: 320 });
      await expect(bounded.read(operatorBomb())).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        cause: 'timeout',
      });
      expect((await bounded.read(await textPdf(englishPages))).pages[0]).toContain('budget');
    });
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const reading = reader.read(operatorBomb(), controller.signal);
    setTimeout(() => controller.abort(new Error('client left')), 200);
    await expect(reading).rejects.toThrow('client left');
  });

  it('refuses reads once closed', async () => {
    const closing = createPdfReader({ workers: 1 });
    await closing.close();
    await expect(closing.read(await textPdf(englishPages))).rejects.toThrow(/closed/);
  });
});
