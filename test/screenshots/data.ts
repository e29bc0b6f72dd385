/**
 * The export and import screens: the note page's Export menu, and Settings' "Your data" (export
 * everything while it counts, an import as it sends, its summary and its refusal by the
 * month's allowance, the Notion connection before and after connecting) and the danger zone's
 * delete dialog. The import is real (a small zip); Notion itself is not reachable here, so its
 * state is answered in the page, as is the refusal.
 */
import type { Page } from 'playwright-core';
import { zipOf } from '../../libs/testing/src/zip.js';
import type { Shot } from './shots.js';

const at = (route: string) => (): string => route;

/** Settings from the sidebar, or from the drawer on a phone. */
const openSettings = async (page: Page) => {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Open the menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Settings' }).click();
  } else {
    await page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('button', { name: 'Settings' })
      .click();
  }
  await page.getByRole('dialog', { name: 'Settings' }).waitFor();
};

/** Settings scrolled to a section, by its heading. */
const settingsAt = async (page: Page, heading: string) => {
  await openSettings(page);
  const found = page.getByRole('dialog', { name: 'Settings' }).getByRole('heading', {
    name: heading,
    exact: true,
  });
  await found.waitFor();
  await found.evaluate((element) => element.scrollIntoView({ block: 'start' }));
};

/** A folder of notes as another app exports it: two linked notes and a file that is not one. */
const notesZip = () =>
  zipOf([
    {
      name: 'Trip to Lisbon.md',
      data: '---\ntags: [travel]\n---\nFlights booked. See [[Packing list]].\n',
    },
    { name: 'Packing list.md', data: '- [ ] Passport\n- [ ] Adapter\n- [x] Camera\n' },
    { name: 'budget.xlsx', data: 'not a note' },
  ]);

/** Picks `file` in the import's file field, as the file chooser would. */
const pickImport = async (page: Page, name: string, buffer: Buffer) => {
  await page
    .locator('input[type="file"][accept=".md,.markdown,.txt,.zip"]')
    .setInputFiles({ name, mimeType: 'application/zip', buffer });
};

const notionConnected = {
  connected: true,
  workspaceName: 'Ada’s workspace',
  status: 'idle',
  lastSyncAt: new Date(Date.now() - 12 * 60_000).toISOString(),
  pagesSynced: 128,
  nextSyncAt: new Date(Date.now() + 48 * 60_000).toISOString(),
};

export const dataShots: Shot[] = [
  {
    name: 'note-export-menu',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menu', { name: 'Export' }).waitFor();
    },
  },
  {
    name: 'settings-your-data',
    path: at('/'),
    act: async (page) => {
      await settingsAt(page, 'Your data');
    },
  },
  {
    // The count has not come yet: the bar moves without a figure, Cancel beside it.
    name: 'settings-export-all-counting',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/all', () => undefined);
    },
    act: async (page) => {
      await settingsAt(page, 'Your data');
      await page.getByRole('button', { name: 'Export all notes' }).click();
      await page.getByRole('progressbar', { name: 'Counting your notes…' }).waitFor();
    },
  },
  {
    // The upload has not been answered yet: the file's name, a moving bar and Stop.
    name: 'settings-import-sending',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/import', () => undefined);
    },
    act: async (page) => {
      await settingsAt(page, 'Import notes');
      await pickImport(page, 'Evernote notes.zip', await notesZip());
      await page.getByRole('progressbar').waitFor();
    },
  },
  {
    name: 'settings-import-summary',
    path: at('/'),
    act: async (page) => {
      await settingsAt(page, 'Import notes');
      await pickImport(page, 'Lisbon notes.zip', await notesZip());
      await page.getByText('Imported “Lisbon notes.zip”.').waitFor({ timeout: 30_000 });
      await page.getByText(/ left out$/).click();
    },
  },
  {
    // A vault with a file built to cost a parser minutes: left out, the rest imported.
    name: 'settings-import-left-out',
    path: at('/'),
    act: async (page) => {
      await settingsAt(page, 'Import notes');
      const vault = await zipOf([
        { name: 'Reading list.md', data: '# Reading list\n\n- Middlemarch\n- The Waves\n' },
        { name: 'nested.md', data: `${'- '.repeat(5_000)}x` },
        { name: 'huge.md', data: 'a'.repeat(5 * 1024 * 1024) },
      ]);
      await pickImport(page, 'Vault.zip', vault);
      await page.getByText('Imported “Vault.zip”.').waitFor({ timeout: 30_000 });
      await page.getByText(/ left out$/).click();
    },
  },
  {
    // An archive that inflates far past its size: refused before anything is written.
    name: 'settings-import-too-large',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/import', (route) =>
        route.fulfill({
          status: 413,
          json: {
            error: {
              code: 'IMPORT_TOO_LARGE',
              message: 'dense.md inflates to more than 200 times its compressed size',
              details: { reason: 'ZIP_INFLATE_RATIO', limit: 200 },
            },
          },
        }),
      );
    },
    act: async (page) => {
      await settingsAt(page, 'Import notes');
      await pickImport(page, 'dense.zip', await notesZip());
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'settings-import-quota',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/import', (route) =>
        route.fulfill({
          status: 403,
          json: {
            error: {
              code: 'NOTES_LEFT_NOT_ENOUGH',
              message: 'The import makes 240 new notes; 35 are left this month',
              details: { needed: 240, left: 35 },
            },
          },
        }),
      );
    },
    act: async (page) => {
      await settingsAt(page, 'Import notes');
      await pickImport(page, 'Notion export.zip', await notesZip());
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'settings-notion-connected',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/import/notion', (route) =>
        route.request().method() === 'GET'
          ? route.fulfill({ json: notionConnected })
          : route.fallback(),
      );
    },
    act: async (page) => {
      await settingsAt(page, 'Notion');
      await page.getByText('Ada’s workspace').waitFor();
    },
  },
  {
    name: 'settings-notion-token-refused',
    path: at('/'),
    routes: async (page) => {
      await page.route('**/export/import/notion', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({
              status: 400,
              json: {
                error: { code: 'NOTION_TOKEN_INVALID', message: 'Notion refused the token' },
              },
            })
          : route.fallback(),
      );
    },
    act: async (page) => {
      await settingsAt(page, 'Notion');
      await page.getByLabel('Integration token').fill('ntn_not_a_real_token');
      await page.getByRole('button', { name: 'Connect Notion' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'dialog-delete-account',
    path: at('/'),
    act: async (page) => {
      await settingsAt(page, 'Delete account');
      await page.getByRole('button', { name: 'Delete account…' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
      await dialog.getByLabel(/^Type your email/).fill('screens-');
    },
  },
];
