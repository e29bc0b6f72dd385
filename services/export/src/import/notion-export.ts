import { findReferences, isoDate, parseMarkdown, rewriteReferences } from './markdown.js';
import type { ImportedNote } from './markdown.js';
import { basename, dirname, extension, isMarkdownPath, withoutExtension } from './paths.js';
import {
  importText,
  planImport,
  watchedText,
  withoutCommonFolder,
  type ExistingNotes,
  type ImportPlan,
  type ParseWatch,
  type PlanLimits,
  type Skipped,
} from './plan.js';
import { mergeTags, tagOf } from './tags.js';
import {
  readZip,
  sizeOf,
  skipReasonOf,
  takeImportFile,
  type ImportFile,
  type ReadZipOptions,
} from './zip.js';

/** `Page Title 0123456789abcdef0123456789abcdef`: Notion's names end in the page's id. */
const NOTION_NAME = /^(.*?)\s+([0-9a-f]{32})$/i;

/** The title part and the page id (32 hex, lower case) of a Notion export name, if it has one. */
export const notionName = (name: string): { title: string; id: string } | undefined => {
  const match = NOTION_NAME.exec(withoutExtension(name));
  return match ? { title: (match[1] ?? '').trim(), id: (match[2] ?? '').toLowerCase() } : undefined;
};

/** A Notion id in the one spelling notes are keyed by: 32 hex digits, lower case, no dashes. */
export const notionKey = (id: string): string => id.replace(/-/g, '').toLowerCase();

/** Rows of a CSV text (RFC 4180: quoted fields, `""` in quotes, CRLF or LF), BOM dropped. */
export const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const input = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < input.length; i += 1) {
    const c = input[i];
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((value) => value !== ''));
};

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, offsetMinutes = 0) => {
  const day = new Date(Date.UTC(y, mo, d));
  // Date.UTC rolls February 30 over into March: such a day is no date.
  if (day.getUTCMonth() !== mo || day.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  return new Date(Date.UTC(y, mo, d, h, mi) - offsetMinutes * 60_000).toISOString();
};

const hour24 = (hour: number, half: string | undefined) =>
  half === undefined ? hour : (hour % 12) + (half.toUpperCase() === 'PM' ? 12 : 0);

/**
 * A date as Notion's export writes it, as ISO 8601: `October 15, 2019 6:39 PM`, with a
 * `(GMT+8)` zone or without (then read as UTC: the export names none), `2019/10/15 18:39`,
 * `2019年10月15日 18:39`, or ISO. A range (`A → B`) is its start.
 */
export const notionDate = (value: string): string | undefined => {
  const text = (value.split('→')[0] ?? '').trim().replace(/^@/, '');
  if (text === '') return undefined;
  const zone = /\(GMT([+-])(\d{1,2})(?::?(\d{2}))?\)\s*$/.exec(text);
  const offset = zone
    ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3] ?? 0))
    : 0;
  const plain = zone ? text.slice(0, zone.index).trim() : text;
  const time = (h?: string, mi?: string, half?: string) =>
    h === undefined ? [0, 0] : [hour24(Number(h), half), Number(mi)];

  const english =
    /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?:\s*(AM|PM))?)?$/i.exec(plain);
  if (english) {
    const month = MONTHS.indexOf((english[1] ?? '').toLowerCase());
    if (month < 0) return undefined;
    const [h, mi] = time(english[4], english[5], english[6]);
    return utc(Number(english[3]), month, Number(english[2]), h, mi, offset);
  }
  const numeric =
    /^(\d{4})[/年](\d{1,2})[/月](\d{1,2})日?(?:\s*(\d{1,2}):(\d{2})(?:\s*(AM|PM))?)?$/i.exec(plain);
  if (numeric) {
    const [h, mi] = time(numeric[4], numeric[5], numeric[6]);
    return utc(Number(numeric[1]), Number(numeric[2]) - 1, Number(numeric[3]), h, mi, offset);
  }
  return isoDate(plain);
};

const CREATED = ['created', 'created time', 'created at', 'date created', '创建时间'];
const UPDATED = ['last edited time', 'last edited', 'updated', 'updated at', '最后编辑时间'];
const TAGS = ['tags', 'tag', '标签'];

interface RowValues {
  createdAt?: string;
  updatedAt?: string;
  tags: string[];
}

/** The values of a database row that notes keep: its dates and its tags. */
const rowValues = (properties: ReadonlyMap<string, string>): RowValues => {
  const get = (names: string[]) => {
    for (const [name, value] of properties) if (names.includes(name.toLowerCase())) return value;
    return undefined;
  };
  const created = get(CREATED);
  const updated = get(UPDATED);
  const createdAt = created === undefined ? undefined : notionDate(created);
  const updatedAt = updated === undefined ? undefined : notionDate(updated);
  return {
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    tags: (get(TAGS) ?? '')
      .split(',')
      .map(tagOf)
      .filter((tag): tag is string => tag !== undefined),
  };
};

const isMapped = (name: string) =>
  [...CREATED, ...UPDATED, ...TAGS].includes(name.trim().toLowerCase());

const PROPERTY = /^([^:\n]{1,100}):[ \t]?(.*)$/;

/**
 * A database row's page starts with its properties, one `Name: value` line each, before the
 * first blank line. Answers them and the body without the ones notes keep elsewhere (dates,
 * tags); the rest stay, as the text they are.
 */
const splitProperties = (body: string): { properties: Map<string, string>; rest: string } => {
  const lines = body.split(/\r?\n/);
  const properties = new Map<string, string>();
  let count = 0;
  for (const line of lines) {
    const match = PROPERTY.exec(line);
    if (!match) break;
    properties.set((match[1] ?? '').trim(), (match[2] ?? '').trim());
    count += 1;
  }
  if (count === 0 || (lines[count] !== undefined && lines[count]!.trim() !== '')) {
    return { properties: new Map(), rest: body };
  }
  const kept = lines.slice(0, count).filter((line) => !isMapped(line.split(':')[0] ?? ''));
  return {
    properties,
    rest: [...kept, ...(kept.length > 0 ? [''] : []), ...lines.slice(count + 1)].join('\n'),
  };
};

/** A database's CSV, by its folder: `Tasks <id>.csv` (or `Tasks <id>_all.csv`) for `Tasks <id>/`. */
const databaseTables = (files: ReadonlyMap<string, ImportFile>) => {
  const tables = new Map<string, string[][]>();
  const csvs = [...files.keys()].filter((path) => extension(path) === 'csv').sort();
  for (const path of csvs) {
    const all = /_all\.csv$/i.test(path);
    const folder = path.replace(/(_all)?\.csv$/i, '');
    // `_all` holds every row, the other one only those of the exported view: `_all` wins.
    if (tables.has(folder) && !all) continue;
    tables.set(folder, parseCsv(importText(files.get(path)!)));
  }
  return tables;
};

/** Rows of a table by the value of its first (title) column; each taken once, in order. */
const rowsByTitle = (table: string[][]) => {
  const [header = [], ...rows] = table;
  const byTitle = new Map<string, Map<string, string>[]>();
  for (const row of rows) {
    const values = new Map(header.map((name, i) => [name.trim(), row[i] ?? '']));
    const title = (row[0] ?? '').trim();
    byTitle.set(title, [...(byTitle.get(title) ?? []), values]);
  }
  return (title: string) => byTitle.get(title)?.shift();
};

/**
 * Expands the zips nested in a Notion export (a large one comes as `Export-...-Part-1.zip`
 * inside the download), read as the outer one was and within what is left of its limits:
 * `used` is what the outer archive took (its nested zips included).
 */
export const expandNestedZips = async (
  files: readonly ImportFile[],
  options: Omit<ReadZipOptions, 'take'> = {},
): Promise<{ files: ImportFile[]; ignored: Awaited<ReturnType<typeof readZip>>['ignored'] }> => {
  let used = options.used ?? files.reduce((sum, file) => sum + sizeOf(file), 0);
  const out: ImportFile[] = [];
  const ignored: Awaited<ReturnType<typeof readZip>>['ignored'] = [];
  for (const file of files) {
    if (extension(file.path) !== 'zip') {
      out.push(file);
      continue;
    }
    const inner = await readZip('bytes' in file ? Buffer.from(file.bytes) : file.file, {
      ...options,
      used,
      take: (path) => extension(path) !== 'zip' && takeImportFile(path),
    });
    used = inner.used;
    out.push(...inner.files);
    ignored.push(...inner.ignored);
  }
  return { files: out, ignored };
};

/**
 * The notes of a Notion "Markdown & CSV" export: each page file `Title <id>.md` a note keyed by
 * its Notion page id (so the API sync later updates the same notes), titled by its `# Title`
 * (file names are cut short) or its name without the id; rows of a database (`Name <id>.csv`
 * beside `Name <id>/`) take their dates and tags from the CSV's `Created` and `Tags` columns
 * (or their own property lines); links to a database's CSV become its name.
 */
export const notionExportNotes = (
  files: readonly ImportFile[],
  watch: ParseWatch = {},
): { notes: ImportedNote[]; files: Map<string, ImportFile>; skipped: Skipped[] } => {
  const rooted = withoutCommonFolder(files);
  const byPath = new Map(rooted.map((file) => [file.path, file]));
  const tables = databaseTables(byPath);
  const rowOf = new Map([...tables].map(([folder, table]) => [folder, rowsByTitle(table)]));
  const notes: ImportedNote[] = [];
  const skipped: Skipped[] = [];

  for (const file of [...rooted].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (!isMarkdownPath(file.path)) {
      if (!/\.(csv|png|jpe?g|gif|webp|avif)$/i.test(file.path)) {
        skipped.push({ path: file.path, reason: 'NOT_MARKDOWN' });
      }
      continue;
    }
    const named = notionName(basename(file.path));
    const folder = dirname(file.path);
    const nextRow = rowOf.get(folder);
    let properties = new Map<string, string>();
    const text = watchedText(file, watch);
    if (text === 'NOTE_TOO_LONG' || text === 'TOO_COMPLEX') {
      skipped.push({ path: file.path, reason: text });
      continue;
    }
    const note = parseMarkdown(file.path, text, {
      fallbackTitle: named?.title ?? withoutExtension(basename(file.path)),
      transformBody: (body) => {
        let text = body;
        if (nextRow) {
          const split = splitProperties(text);
          properties = split.properties;
          text = split.rest;
        }
        if (!text.includes('.csv')) return text;
        return rewriteReferences(text, findReferences(text, file.path), (reference) =>
          reference.kind === 'link' && extension(reference.path) === 'csv'
            ? (reference.text ?? '')
            : undefined,
        );
      },
    });
    // The CSV has the whole title; the file name may be cut short.
    const row = nextRow?.(note.title) ?? (named ? nextRow?.(named.title) : undefined);
    const values = rowValues(new Map([...properties, ...(row ?? [])]));
    const createdAt = values.createdAt ?? note.createdAt;
    const updatedAt = values.updatedAt ?? note.updatedAt;
    notes.push({
      ...note,
      key: named ? named.id : note.key,
      tags: mergeTags(values.tags, note.tags),
      ...(createdAt ? { createdAt } : {}),
      ...(updatedAt ? { updatedAt } : {}),
    });
  }
  watch.onParsed?.();
  return { notes, files: byPath, skipped };
};

/** Plans the import of a Notion export's files (read from its zip with readZip). */
export const planNotionExportImport = async (input: {
  userId: string;
  files: readonly ImportFile[];
  existing: ExistingNotes;
  limits?: Partial<PlanLimits>;
  /** How nested zips are read (see expandNestedZips). */
  zip?: Omit<ReadZipOptions, 'take'>;
  watch?: ParseWatch;
}): Promise<ImportPlan> => {
  const expanded = await expandNestedZips(input.files, input.zip);
  const { notes, files, skipped } = notionExportNotes(expanded.files, input.watch);
  return planImport({
    userId: input.userId,
    source: 'notion',
    notes,
    files,
    skipped: [
      ...expanded.ignored.map((entry) => ({
        path: entry.path,
        reason: skipReasonOf(entry),
      })),
      ...skipped,
    ],
    existing: input.existing,
    ...(input.limits ? { limits: input.limits } : {}),
  });
};
