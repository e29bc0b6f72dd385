/**
 * Real files made in the test, for the capture paths: a PDF whose pages hold known text, and
 * a WAV of a tone of known length. Both are valid files any reader takes, not look-alikes.
 */

const escapePdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A PDF with one page per entry, each line of it written in Helvetica (WinAnsi: Latin text
 * only). Offsets in the cross-reference table are computed, so strict readers accept it.
 */
/**
 * A PDF's pages about one topic, each line short enough for the page: long enough for a capture
 * to suggest tags of its own (`pdfWithText(reportPages)`).
 */
export const reportPages = [
  'Quarterly report\nRevenue grew 18 percent in the third quarter, driven by the\n' +
    'new subscription plans. Revenue grew fastest in Europe, where\n' +
    'subscription revenue doubled. We hired two senior engineers; they\n' +
    'join the platform team in January.',
  'Churn fell to 3 percent after the onboarding changes. Next quarter the\n' +
    'platform team moves billing to the new subscription system, and\n' +
    'marketing spends on the Europe launch. The subscription plans now\n' +
    'make up 60 percent of revenue.',
];

export const pdfWithText = (pages: string[], options: { padBytes?: number } = {}): Buffer => {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pageTree = add('');
  const font = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const kids: number[] = [];
  for (const text of pages) {
    const lines = text.split('\n');
    const stream = [
      'BT',
      '/F1 14 Tf',
      '16 TL',
      '72 720 Td',
      ...lines.map((line, index) => `${index === 0 ? '' : 'T* '}(${escapePdfText(line)}) Tj`),
      'ET',
    ].join('\n');
    const content = add(
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  // Bytes no page uses, as an attachment or a large image would be: a PDF of a given size.
  if (options.padBytes) {
    add(`<< /Length ${options.padBytes} >>\nstream\n${'x'.repeat(options.padBytes)}\nendstream`);
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] =
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
};

/** A mono 16-bit PCM WAV of a 440 Hz tone lasting `seconds`. */
export const wavTone = (seconds: number, sampleRate = 8000): Buffer => {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
};
