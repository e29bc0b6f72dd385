/**
 * The screens of Noted: every route of the spec, signed in and out, and every dialog and
 * shell piece. Each later screen adds its shot here.
 */
import type { Page } from 'playwright-core';
import { billingShots } from './billing.js';
import { captureShots } from './capture.js';
import { dataShots } from './data.js';
import { marketingShots } from './marketing.js';
import { offlineShots } from './offline.js';

export interface Seeded {
  /** A pinned note with headings, todos and a [[link]]. */
  noteId: string;
  /** A note with an image. */
  imageNoteId: string;
  /** The note the first one links to (so it has a backlink). */
  linkedNoteId: string;
  /** The title of the note the first one links to. */
  linkedNoteTitle: string;
  /** The public path of a shared note. */
  sharedPath: string;
  /** A conversation of the knowledge chat. */
  chatPath?: string;
}

export interface Shot {
  name: string;
  path: (seeded: Seeded) => string;
  signedOut?: boolean;
  /** Answers set up before the page opens (`page.route`), for what the server here cannot give. */
  routes?: (page: Page) => Promise<void>;
  /** What to do on the page before the picture: open a dialog, scroll, ... */
  act?: (page: Page, seeded: Seeded) => Promise<void>;
  fullPage?: boolean;
  /** Taken in a context of its own, closed after the picture (what the shot leaves behind on
   * the device, such as changes waiting offline, goes with it). */
  ownContext?: boolean;
  /** Undoes on the server what `act` did there, after the picture. */
  after?: () => Promise<void>;
  /** Taken signed in to an account of this many notes (bulk.ts) rather than the seeded one. */
  account?: number;
}

const at = (route: string) => (): string => route;

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

/** The sidebar's Settings button, or the drawer's on a phone. */
const openMenuItem = async (page: Page, name: string) => {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Open the menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await page
      .getByRole('dialog')
      .getByRole(name === 'Settings' ? 'button' : 'link', { name })
      .click();
  } else {
    await sidebar(page)
      .getByRole(name === 'Settings' ? 'button' : 'link', { name })
      .click();
  }
};

/** From the welcome page through the sign-in dialog to the identity provider's page. */
const toSignInPage = async (page: Page) => {
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue to sign in' }).click();
  await page.getByLabel('Email').waitFor();
};

export const shots: Shot[] = [
  { name: 'welcome', path: at('/'), signedOut: true },
  {
    name: 'dialog-sign-in',
    path: at('/'),
    signedOut: true,
    act: async (page) => {
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  // The development identity provider's page (embedded defaults), reached as a visitor does.
  { name: 'sign-in', path: at('/'), signedOut: true, act: toSignInPage },
  {
    name: 'sign-in-error',
    path: at('/'),
    signedOut: true,
    act: async (page) => {
      await toSignInPage(page);
      // The browser checks the address first; the server's answer is the state to see.
      await page.locator('form').evaluate((form: HTMLFormElement) => {
        form.noValidate = true;
      });
      await page.getByLabel('Email').fill('ada at example.com');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
    },
  },
  { name: 'private-page-signed-out', path: at('/todos'), signedOut: true },
  { name: 'shared-note', path: (seeded) => seeded.sharedPath, signedOut: true },
  { name: 'not-found-signed-out', path: at('/no-such-page'), signedOut: true },

  { name: 'notes', path: at('/') },
  { name: 'notes-full', path: at('/'), fullPage: true },
  {
    name: 'notes-search',
    path: at('/?q=reading'),
  },
  {
    name: 'notes-empty-search',
    path: at('/?q=nothingmatchesthis'),
  },
  { name: 'note', path: (seeded) => `/notes/${seeded.noteId}` },
  { name: 'note-with-image', path: (seeded) => `/notes/${seeded.imageNoteId}` },
  {
    name: 'note-preview',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
    },
  },
  {
    name: 'note-scrolled-list-then-open',
    path: at('/'),
    act: async (page) => {
      await page.mouse.wheel(0, 2000);
      await page.waitForTimeout(300);
      await page.getByRole('link', { name: 'Mechanic', exact: true }).click();
      await page.waitForURL(/\/notes\//);
    },
  },
  {
    name: 'dialog-image-preview',
    path: (seeded) => `/notes/${seeded.imageNoteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Open image 1' }).click();
      await page.getByRole('dialog', { name: 'Image preview' }).waitFor();
    },
  },
  {
    name: 'dialog-note-link',
    path: (seeded) => `/notes/${seeded.linkedNoteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Preview Q4 planning' }).click();
      await page.getByRole('dialog', { name: 'Q4 planning' }).waitFor();
    },
  },
  {
    name: 'dialog-links',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Links', exact: true }).click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'dialog-confirm-delete',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').waitFor();
    },
  },
  {
    name: 'menu-note-actions',
    path: at('/'),
    act: async (page) => {
      await page
        .getByRole('button', { name: /^Actions for / })
        .nth(1)
        .click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'menu-account',
    path: at('/'),
    act: async (page) => {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Account: / })
        .click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'dialog-shortcuts',
    path: at('/'),
    act: async (page) => {
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    },
  },
  {
    name: 'composer-writing',
    path: at('/'),
    act: async (page) => {
      await page.getByLabel('Title').fill('Standup');
      await page
        .getByLabel('Note', { exact: true })
        .fill('Shipped the composer. Next: review flow.\n- [ ] Ask about #design tokens\n#work');
    },
  },
  {
    name: 'notes-tag-filter',
    path: at('/?tag=work'),
  },
  {
    name: 'share-panel',
    path: at('/'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Shared' }).first().click();
    },
  },
  {
    name: 'install-prompt',
    path: at('/'),
    act: async (page) => {
      await page.evaluate(() => {
        const event = new Event('beforeinstallprompt');
        Object.assign(event, {
          prompt: async () => undefined,
          userChoice: Promise.resolve({ outcome: 'dismissed' }),
        });
        window.dispatchEvent(event);
      });
      await page.getByRole('complementary', { name: 'Install Noted' }).waitFor();
    },
  },
  {
    name: 'remote-failed',
    path: at('/'),
    act: async (page) => {
      await page.route('**/remotes/notes/**', (route) => route.abort('connectionrefused'));
      await page.reload();
      await page.getByRole('alert').waitFor();
    },
  },
  {
    name: 'dialog-settings',
    path: at('/'),
    act: async (page) => {
      await openMenuItem(page, 'Settings');
      await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    },
  },
  {
    name: 'drawer-menu',
    path: at('/'),
    act: async (page) => {
      const menu = page.getByRole('banner').getByRole('button', { name: 'Open the menu' });
      if (await menu.isVisible()) await menu.click();
    },
  },
  {
    name: 'sidebar-collapsed',
    path: at('/'),
    act: async (page) => {
      const toggle = sidebar(page).getByRole('button', { name: 'Collapse sidebar' });
      if (await toggle.isVisible()) {
        await toggle.click();
        await page.waitForTimeout(300);
      }
    },
  },
  {
    name: 'toast',
    path: at('/?next=https%3A%2F%2Fexample.org%2Fsomewhere'),
    act: async (page) => {
      await page.locator('.ui-toast').waitFor();
    },
  },
  {
    name: 'update-notice',
    path: at('/'),
    act: async (page) => {
      await page.route('**/build.json', (route) =>
        route.fulfill({ contentType: 'application/json', body: '{"buildId":"newer"}' }),
      );
      // The page checks for a new build when it comes back into view.
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await page.getByRole('button', { name: 'Refresh' }).waitFor();
    },
  },
  {
    name: 'note-summary',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Summarize', exact: true }).click();
      await page.getByRole('region', { name: 'Summary' }).waitFor();
    },
  },
  {
    name: 'note-writer',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'AI writer', exact: true }).click();
      await page.getByRole('toolbar', { name: 'AI writer' }).waitFor();
    },
  },
  {
    name: 'note-writer-answer',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'AI writer', exact: true }).click();
      const toolbar = page.getByRole('toolbar', { name: 'AI writer' });
      await toolbar.getByRole('button', { name: 'Ask AI' }).click();
      await page.getByLabel('Your question about this note').fill('What is still open?');
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
    },
  },
  {
    name: 'notes-meaning',
    path: at('/?q=reading&meaning=1'),
    act: async (page) => {
      await page.getByRole('region', { name: 'Found by meaning' }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'notes-meaning-nearest',
    path: at('/?q=quantum%20chromodynamics%20lattice&meaning=1'),
    act: async (page) => {
      await page
        .getByRole('region', { name: 'Found by meaning' })
        .getByText(/is clearly about/)
        .waitFor();
    },
  },
  {
    name: 'menu-export',
    path: (seeded) => `/notes/${seeded.noteId}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await page.getByRole('menu', { name: 'Export' }).waitFor();
    },
  },
  { name: 'pricing', path: at('/pricing'), signedOut: true },
  { name: 'pricing-signed-in', path: at('/pricing') },
  // A server that takes no payments, reached by an old link: there was nothing to pay.
  { name: 'subscription-success-free', path: at('/subscription/success') },
  { name: 'todos', path: at('/todos') },
  {
    name: 'todos-done',
    path: at('/todos'),
    act: async (page) => {
      await page.getByRole('radio', { name: 'Done' }).check();
    },
  },
  { name: 'review', path: at('/review') },
  {
    // A note is first due a day after it is written: the seeded notes stand in for due ones.
    name: 'review-due',
    path: at('/review'),
    act: async (page) => {
      await page.route('**/api/notes/review?*', async (route) => {
        const url = route.request().url().replace('/api/notes/review', '/api/notes');
        await route.fulfill({ response: await route.fetch({ url }) });
      });
      await page.reload();
    },
  },
  { name: 'mindlink', path: at('/mindlink') },
  { name: 'mindmap-50', path: at('/mindlink'), account: 50 },
  { name: 'mindmap-500', path: at('/mindlink'), account: 500 },
  { name: 'notes-120', path: at('/'), account: 120 },
  { name: 'chat', path: at('/chat') },
  { name: 'chat-conversation', path: (seeded) => seeded.chatPath ?? '/chat' },
  { name: 'summaries', path: at('/summaries') },
  { name: 'summaries-week', path: at('/summaries?period=week') },
  { name: 'ai-settings', path: at('/settings/ai') },
  { name: 'ai-settings-full', path: at('/settings/ai'), fullPage: true },
  { name: 'not-found', path: at('/no-such-page') },
  ...billingShots,
  ...captureShots,
  ...offlineShots,
  ...dataShots,
  ...marketingShots,
];
