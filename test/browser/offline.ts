/**
 * Offline in the browser: one user on a laptop and a phone (two browser contexts). The laptop
 * reads its notes, goes offline (the context's offline mode), opens the app again in its own
 * notes, writes two notes and edits two, closes the page and opens it again, all while the
 * phone changes one of those notes. Back online, the laptop sends everything once, in order;
 * the edit made on a version the phone changed since is shown as a conflict and resolved by
 * keeping it. Signing out deletes the device copy, and the app then opens offline signed out.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import type { Step } from './shell.js';
import { openPage, runSteps, signIn } from './steps.js';

const fail = (message: string): never => {
  throw new Error(message);
};

const editor = (page: Page) => page.getByRole('textbox', { name: 'Note', exact: true });
const accountButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Account: / });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const saveStatus = (page: Page) => page.locator('.note-save-status');

/** Writes a note with the list's composer. */
const write = async (page: Page, title: string, body: string) => {
  const titleField = page.getByLabel('Title');
  await titleField.fill(title);
  await editor(page).fill(body);
  await editor(page).press('Control+Enter');
  await card(page, title).waitFor();
  // The card shows before the composer empties itself for the next note: a title typed in
  // between would be cleared (and the next note saved untitled).
  await page.waitForFunction(
    (field) => (field as HTMLInputElement | HTMLTextAreaElement).value === '',
    await titleField.elementHandle(),
    { timeout: 10_000 },
  );
};

/** Opens a note from the list, replaces its body, and waits for the page to say it is saved. */
const edit = async (page: Page, title: string, body: string, saved: string) => {
  await page.getByRole('link', { name: title, exact: true }).click();
  await editor(page).fill(body);
  await editor(page).blur();
  await saveStatus(page).getByText(saved, { exact: true }).waitFor();
  await page.getByRole('link', { name: 'All notes' }).click();
};

/** What the laptop sent: creates and edits of notes, with their answers, in order. */
const recordWrites = (context: BrowserContext) => {
  const writes: string[] = [];
  const record = async (response: Response) => {
    const request = response.request();
    const url = new URL(request.url());
    if (request.method() === 'POST' && url.pathname === '/api/note/create/direct') {
      const body = JSON.parse(request.postData() ?? '{}') as { title?: string };
      writes.push(`create ${body.title ?? ''} ${response.status()}`);
    } else if (request.method() === 'PUT' && url.pathname.startsWith('/api/notes/')) {
      const body = JSON.parse(request.postData() ?? '{}') as { note?: string };
      writes.push(`edit "${body.note ?? ''}" ${response.status()}`);
    }
  };
  context.on('response', (response) => void record(response));
  return writes;
};

export const runOfflineChecks = async (
  browser: Browser,
  options: { baseUrl: URL; timeoutMs: number; pageErrors: string[] },
): Promise<{ passed: number; failed: number }> => {
  const { baseUrl } = options;
  const user = {
    email: `offline-${randomUUID().slice(0, 8)}@example.com`,
    displayName: 'Offline Check',
  };
  const word = randomUUID().slice(0, 6);
  const titles = {
    keptA: `Kept A ${word}`,
    keptB: `Kept B ${word}`,
    first: `Offline one ${word}`,
    second: `Offline two ${word}`,
  };
  let laptop = await openPage(browser, options.timeoutMs, options.pageErrors);
  const phone = await openPage(browser, options.timeoutMs, options.pageErrors);
  const context = laptop.context();
  const writes = recordWrites(context);

  const steps: Step[] = [
    {
      name: 'offline: signed in on two devices; the laptop reads two notes and is installed',
      run: async () => {
        for (const page of [laptop, phone]) {
          await page.goto(baseUrl.href);
          await signIn(page, user);
        }
        await write(laptop, titles.keptA, 'Written online.');
        await write(laptop, titles.keptB, 'Written online too.');
        await laptop.evaluate(async () => {
          await navigator.serviceWorker.ready;
        });
        await laptop.waitForFunction(async () =>
          Boolean(await caches.match(new URL('/remotes/notes/remoteEntry.js', location.href).href)),
        );
        // Read once more, so the list the device keeps has both.
        await laptop.reload();
        await card(laptop, titles.keptB).waitFor();
        writes.length = 0;
      },
    },
    {
      name: "offline: the app opens without a network in the user's own notes, from the device",
      run: async () => {
        await context.setOffline(true);
        await laptop.reload();
        await laptop
          .getByText('You are offline. These are the notes kept on this device', { exact: false })
          .waitFor();
        await accountButton(laptop).waitFor();
        await card(laptop, titles.keptA).waitFor();
        await card(laptop, titles.keptB).waitFor();
      },
    },
    {
      name: 'offline: notes written and edited offline are kept and marked as not sent yet',
      run: async () => {
        await write(laptop, titles.first, 'Written offline first.');
        await write(laptop, titles.second, 'Written offline second.');
        await edit(laptop, titles.keptA, 'Edited offline.', 'Saved on this device');
        await edit(laptop, titles.keptB, 'Edited offline on the laptop.', 'Saved on this device');
        await laptop.getByText('4 changes are waiting to be sent.').waitFor();
        for (const title of Object.values(titles)) {
          await card(laptop, title).getByText('Not sent yet').waitFor();
        }
        if (writes.length > 0) fail(`sent while offline: ${writes.join('; ')}`);
      },
    },
    {
      name: 'offline: closing the page and opening it again keeps everything',
      run: async () => {
        await laptop.close();
        laptop = await context.newPage();
        laptop.setDefaultTimeout(options.timeoutMs);
        laptop.on('pageerror', (error) => options.pageErrors.push(`uncaught: ${error.message}`));
        await laptop.goto(baseUrl.href);
        await laptop.getByText('4 changes are waiting to be sent.').waitFor();
        await card(laptop, titles.first).getByText('Not sent yet').waitFor();
        await laptop.getByRole('link', { name: titles.keptA, exact: true }).click();
        await laptop.getByText('Edited offline.').first().waitFor();
        await laptop.getByRole('link', { name: 'All notes' }).click();
      },
    },
    {
      name: 'offline: meanwhile the phone changes one of the notes the laptop edited',
      run: async () => {
        await phone.reload();
        await phone.getByRole('link', { name: titles.keptB, exact: true }).click();
        const saved = phone.waitForResponse(
          (response) => response.request().method() === 'PUT' && response.status() === 200,
        );
        await editor(phone).fill('Changed on the phone.');
        await saved;
      },
    },
    {
      name: 'online: everything is sent once, in order; the note changed meanwhile is a conflict',
      run: async () => {
        await context.setOffline(false);
        const held = laptop.getByRole('alert').filter({ hasText: 'changed elsewhere' });
        await held.waitFor();
        await laptop
          .getByText('waiting to be sent', { exact: false })
          .waitFor({ state: 'detached' });
        const expected = [
          `create ${titles.first} 201`,
          `create ${titles.second} 201`,
          'edit "Edited offline." 200',
          'edit "Edited offline on the laptop." 409',
        ];
        if (JSON.stringify(writes) !== JSON.stringify(expected)) {
          fail(`sent ${JSON.stringify(writes)}, expected ${JSON.stringify(expected)}`);
        }
        await card(laptop, titles.first).getByText('Not sent yet').waitFor({ state: 'detached' });
        await card(laptop, titles.keptB).getByText('Conflict').waitFor();
        // The phone has what was written offline, each note once.
        await phone.goto(baseUrl.href);
        for (const title of [titles.first, titles.second]) {
          await card(phone, title).waitFor();
          const count = await card(phone, title).count();
          if (count !== 1) fail(`"${title}" is listed ${count} times on the phone`);
        }
        await card(phone, titles.keptA).getByText('Edited offline.').waitFor();
      },
    },
    {
      name: "online: the conflict offers both versions, and keeping the laptop's wins everywhere",
      run: async () => {
        await laptop
          .getByRole('alert')
          .getByRole('link', { name: titles.keptB, exact: true })
          .click();
        const callout = laptop
          .getByRole('alert')
          .filter({ hasText: 'Changed elsewhere while you were offline' });
        await callout.waitFor();
        await callout.getByRole('button', { name: 'Keep my version' }).click();
        await saveStatus(laptop).getByText('Saved', { exact: true }).waitFor();
        await callout.waitFor({ state: 'detached' });
        await phone.reload();
        await card(phone, titles.keptB).getByText('Edited offline on the laptop.').waitFor();
      },
    },
    {
      name: 'offline: signing out deletes the device copy; offline, the app then opens signed out',
      run: async () => {
        await laptop.goto(baseUrl.href);
        await accountButton(laptop).click();
        await laptop.getByRole('banner').getByRole('menuitem', { name: 'Sign out' }).click();
        await laptop.getByRole('main').getByRole('button', { name: 'Sign in' }).waitFor();
        const kept = await laptop.evaluate(async () =>
          (await indexedDB.databases())
            .map((db) => db.name ?? '')
            .filter((name) => name.startsWith('noted-offline:')),
        );
        if (kept.length > 0) fail(`the device copy is still there: ${kept.join(', ')}`);
        await context.setOffline(true);
        try {
          await laptop.reload();
          await laptop
            .getByRole('main')
            .getByText('You are offline, so Noted cannot check your sign-in.', { exact: false })
            .waitFor();
          if ((await accountButton(laptop).count()) > 0)
            fail('signed in offline after signing out');
        } finally {
          await context.setOffline(false);
        }
      },
    },
  ];

  try {
    return await runSteps(laptop, steps, { timeoutMs: options.timeoutMs, name: 'offline' });
  } finally {
    await context.close();
    await phone.context().close();
  }
};
