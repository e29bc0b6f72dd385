import { PNG_1X1, type ZipEntryFixture } from './zip.js';

/** Page ids as Notion's export writes them in names: 32 hex digits. */
export const NOTION_IDS = {
  home: '1f2e3d4c5b6a79880716253443526170',
  plan: 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
  tasks: '9c8b7a69584736251403f2e1d0c9b8a7',
  spec: '0123456789abcdef0123456789abcdef',
  long: 'fedcba9876543210fedcba9876543210',
  untitled: '11112222333344445555666677778888',
} as const;

const enc = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * A Notion "Markdown & CSV" workspace export, as Notion lays it out: everything under an
 * `Export-<uuid>` folder; each page `Title <id>.md` starting with `# Title`, its sub-pages and
 * files in the folder `Title <id>/`; a database as `Name <id>.csv` (the view) and
 * `Name <id>_all.csv` (every row) beside `Name <id>/` holding one page per row, each page
 * listing the row's properties under its title; links as relative, percent-encoded paths;
 * names cut short, the `# Title` whole.
 */
export const notionExport = (): ZipEntryFixture[] => {
  const root = 'Export-7f1c0a52-3e1b-4c55-9f0e-2b8f4c1d6e3a';
  const home = `Home ${NOTION_IDS.home}`;
  const plan = `${home}/Project Plan ${NOTION_IDS.plan}`;
  const tasks = `${home}/Tasks ${NOTION_IDS.tasks}`;
  const spec = `${tasks}/Write the spec ${NOTION_IDS.spec}`;
  const long = `${tasks}/A very long task title that Notion cuts short in th ${NOTION_IDS.long}`;
  const csvHeader = '\uFEFFName,Created,Status,Tags';
  const rows = [
    'Write the spec,"January 5, 2024 3:14 PM",Done,"work, Q1 planning"',
    '"A very long task title that Notion cuts short in the file name, really","February 29, 2024 11:05 AM (GMT+8)",In progress,work',
  ];
  return [
    {
      name: `${root}/${home}.md`,
      data: [
        '# Home',
        '',
        `Welcome. The plan is in [Project Plan](${enc(plan)}.md), the work in [Tasks](${enc(tasks)}.csv).`,
        '',
        `![diagram.png](${enc(home)}/diagram.png)`,
        '',
        '- [ ] review #weekly',
        '',
      ].join('\n'),
    },
    { name: `${root}/${home}/diagram.png`, data: PNG_1X1, compress: false },
    {
      name: `${root}/${plan}.md`,
      data: `# Project Plan\n\nBack to [Home](../${enc(home)}.md). Start with [Write the spec](${enc(`Tasks ${NOTION_IDS.tasks}/Write the spec ${NOTION_IDS.spec}`)}.md).\n`,
    },
    { name: `${root}/${tasks}.csv`, data: `${csvHeader}\n${rows[0]}\n` },
    { name: `${root}/${tasks}_all.csv`, data: `${csvHeader}\n${rows.join('\n')}\n` },
    {
      name: `${root}/${spec}.md`,
      data: [
        '# Write the spec',
        '',
        'Created: January 5, 2024 3:14 PM',
        'Status: Done',
        'Tags: work, Q1 planning',
        '',
        `Draft it with the [Project Plan](../${enc(`Project Plan ${NOTION_IDS.plan}`)}.md) at hand. #draft`,
        '',
      ].join('\n'),
    },
    {
      name: `${root}/${long}.md`,
      data: [
        '# A very long task title that Notion cuts short in the file name, really',
        '',
        'Created: February 29, 2024 11:05 AM (GMT+8)',
        'Status: In progress',
        'Tags: work',
        '',
        'Notes: the first paragraph of a row page, not a property.',
        '',
      ].join('\n'),
    },
    { name: `${root}/Untitled ${NOTION_IDS.untitled}.md`, data: 'Text without a heading.\n' },
  ];
};
