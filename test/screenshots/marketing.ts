import type { Shot } from './shots.js';

const at = (route: string) => (): string => route;

/** The token the server was started with (CONTENT_PREVIEW_TOKEN), for the draft's picture. */
const previewToken = process.env.CONTENT_PREVIEW_TOKEN ?? 'preview-secret';

/**
 * The site: its prerendered pages signed out (whole pages, as a visitor scrolls them), a few of
 * them signed in, in Chinese, a draft in preview mode, the 404, and the feedback page.
 */
export const marketingShots: Shot[] = [
  { name: 'landing', path: at('/landing'), signedOut: true },
  { name: 'landing-full', path: at('/landing'), signedOut: true, fullPage: true },
  { name: 'landing-signed-in', path: at('/landing') },
  { name: 'landing-zh', path: at('/landing?lang=zh'), signedOut: true },
  {
    name: 'landing-menu',
    path: at('/landing'),
    signedOut: true,
    act: async (page) => {
      const menu = page.locator('.site-menu > summary');
      if (await menu.isVisible()) await menu.click();
    },
  },
  { name: 'guide', path: at('/guide'), signedOut: true, fullPage: true },
  { name: 'guide-chapter', path: at('/guide/capture'), signedOut: true },
  { name: 'guide-chapter-zh', path: at('/guide/self-hosting?lang=zh'), signedOut: true },
  { name: 'blog', path: at('/blog'), signedOut: true, fullPage: true },
  { name: 'blog-tag', path: at('/blog/tag/engineering'), signedOut: true },
  { name: 'blog-article', path: at('/blog/offline-first-notes'), signedOut: true },
  {
    name: 'blog-article-full',
    path: at('/blog/offline-first-notes'),
    signedOut: true,
    fullPage: true,
  },
  {
    name: 'blog-article-zh-fallback',
    path: at('/blog/offline-first-notes?lang=zh'),
    signedOut: true,
  },
  { name: 'content-page', path: at('/about'), signedOut: true },
  { name: 'site-not-found', path: at('/blog/no-such-post'), signedOut: true },
  {
    name: 'blog-draft-preview',
    path: at(`/blog/roadmap-2027?preview=${previewToken}`),
    signedOut: true,
    ownContext: true,
    act: async (page) => {
      await page.getByText('Preview mode: drafts are shown.').waitFor();
    },
  },
  {
    name: 'site-in-app',
    path: at('/todos'),
    act: async (page) => {
      // The sidebar's Guide, or the drawer's on a phone: a client-side visit, through the remote.
      const menu = page.getByRole('banner').getByRole('button', { name: 'Open the menu' });
      const phone = await menu.isVisible();
      if (phone) await menu.click();
      await (phone ? page.getByRole('dialog') : page)
        .getByRole('link', { name: 'Guide' })
        .first()
        .click();
      await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
    },
  },
  { name: 'feedback', path: at('/feedback') },
  { name: 'feedback-signed-out', path: at('/feedback'), signedOut: true },
  {
    name: 'feedback-sent',
    path: at('/feedback'),
    act: async (page) => {
      await page.getByLabel('Your message').fill('Dark mode for the mind map, please.');
      await page.getByRole('button', { name: 'Send feedback' }).click();
      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      await page
        .getByRole('region', { name: 'What you sent' })
        .getByText('Dark mode for the mind map, please.')
        .first()
        .waitFor();
    },
  },
];
