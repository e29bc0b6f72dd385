/**
 * The offline screens: the list from the device copy with a change waiting, the sign-out that
 * asks about it, and a note edited offline that was changed elsewhere meanwhile. Each runs in a
 * context of its own (`ownContext`), closed with what waits in it unsent, so the other shots'
 * notes stay as seeded.
 */
import type { Page } from 'playwright-core';
import type { Shot } from './shots.js';

/** The access token the page sends, read from its next request to the API. */
const bearerOf = async (page: Page, load: () => Promise<unknown>) => {
  const request = page.waitForRequest((sent) =>
    Boolean(sent.url().includes('/api/') && sent.headers().authorization),
  );
  await load();
  return (await request).headers().authorization ?? '';
};

const call = async (
  base: string,
  bearer: string,
  method: string,
  route: string,
  body?: unknown,
) => {
  const response = await fetch(new URL(route, base), {
    method,
    headers: { authorization: bearer, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}`);
  return response.status === 204 ? undefined : ((await response.json()) as { id: string });
};

/** Offline, a note written in the composer: kept on the device and marked as not sent. */
const writeOffline = async (page: Page) => {
  await page.getByRole('article').first().waitFor();
  await page.context().setOffline(true);
  await page.getByLabel('Title').fill('Written on the train');
  await page
    .getByLabel('Note', { exact: true })
    .fill('No signal between stations: this waits on the device. #travel');
  await page.getByLabel('Note', { exact: true }).press('Control+Enter');
  await page.getByText('Not sent yet').first().waitFor();
};

/** What the conflict's shot made on the server, deleted after its picture. */
let made: { base: string; bearer: string; id: string } | undefined;

export const offlineShots: Shot[] = [
  {
    name: 'notes-offline',
    path: () => '/',
    ownContext: true,
    // The notice at the top and the card marked "Not sent yet" further down.
    fullPage: true,
    act: writeOffline,
  },
  {
    name: 'dialog-sign-out-unsent',
    path: () => '/',
    ownContext: true,
    act: async (page) => {
      await writeOffline(page);
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Account: / })
        .click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('alertdialog').waitFor();
    },
  },
  {
    name: 'note-offline-conflict',
    path: () => '/',
    ownContext: true,
    act: async (page) => {
      const bearer = await bearerOf(page, () => page.reload());
      const note = await call(page.url(), bearer, 'POST', '/api/note/create/direct', {
        title: 'Packing list',
        note: 'Passport, charger, the blue notebook.',
      });
      if (!note) throw new Error('the note was not made');
      made = { base: page.url(), bearer, id: note.id };
      await page.goto(new URL(`/notes/${note.id}`, page.url()).href);
      const editor = page.getByRole('textbox', { name: 'Note', exact: true });
      await editor.getByText('Passport').waitFor();
      await page.context().setOffline(true);
      await editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' Adapter for the plugs.');
      await page.getByText('Saved on this device').waitFor();
      await call(page.url(), bearer, 'PUT', `/api/notes/${note.id}`, {
        note: 'Passport, charger, the blue notebook, sunglasses.',
      });
      await page.context().setOffline(false);
      await page.getByText('Changed elsewhere while you were offline').waitFor();
    },
    after: async () => {
      if (made) await call(made.base, made.bearer, 'DELETE', `/api/notes/${made.id}`);
      made = undefined;
    },
  },
];
