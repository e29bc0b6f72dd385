/**
 * The live connection in the browser: one user in two browser contexts (two devices). A note
 * written in one shows in the other's list; a change saved in one shows in the other's open
 * note; a change saved in one while the other is typing is offered, not overwritten; a note
 * deleted in one is said to be deleted in the other. Each push is timed, from the moment the
 * writing side's save answered to the moment the other side shows it.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { Step } from './shell.js';
import { openPage, runSteps, signIn } from './steps.js';

const fail = (message: string): never => {
  throw new Error(message);
};

/** How long a push may take here before the check fails (the aim is well under a second). */
const PUSH_LIMIT_MS = 2_000;

const editor = (page: Page) => page.getByRole('textbox', { name: 'Note', exact: true });

/** Waits for `shown` on `page` and returns how long it took from `since`. */
const pushedWithin = async (label: string, since: number, shown: () => Promise<unknown>) => {
  await shown();
  const ms = Date.now() - since;
  console.log(`  ${label}: shown on the other device ${ms} ms after the save answered`);
  if (ms > PUSH_LIMIT_MS) fail(`${label} took ${ms} ms to show on the other device`);
};

export const runLiveChecks = async (
  browser: Browser,
  options: { baseUrl: URL; timeoutMs: number; pageErrors: string[] },
): Promise<{ passed: number; failed: number }> => {
  const { baseUrl } = options;
  const user = { email: `live-${randomUUID().slice(0, 8)}@example.com`, displayName: 'Live Check' };
  const title = `Live ${randomUUID().slice(0, 8)}`;
  const laptop = await openPage(browser, options.timeoutMs, options.pageErrors);
  const phone = await openPage(browser, options.timeoutMs, options.pageErrors);
  let noteUrl = '';

  const saved = (page: Page) =>
    page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/api/notes/'),
    );

  const steps: Step[] = [
    {
      name: 'live: one user signed in on two devices',
      run: async () => {
        for (const page of [laptop, phone]) {
          await page.goto(baseUrl.href);
          await signIn(page, user);
        }
      },
    },
    {
      name: "live: a note written on one device appears in the other's list",
      run: async () => {
        await laptop.getByLabel('Title').fill(title);
        await editor(laptop).fill('Written on the laptop.');
        const created = laptop.waitForResponse(
          (response) => response.request().method() === 'POST' && response.status() === 201,
        );
        await editor(laptop).press('Control+Enter');
        await created;
        await pushedWithin('a new note', Date.now(), () =>
          phone.getByRole('heading', { name: title }).waitFor(),
        );
      },
    },
    {
      name: "live: a change saved on one device shows in the other's open note",
      run: async () => {
        await phone.getByRole('link', { name: title, exact: true }).click();
        await editor(phone).waitFor();
        noteUrl = phone.url();
        await laptop.goto(noteUrl);
        await editor(laptop).waitFor();
        const answered = saved(laptop);
        await editor(laptop).fill('Changed on the laptop.');
        await answered;
        await pushedWithin('a change', Date.now(), async () => {
          await phone.waitForFunction(
            () =>
              (
                document.querySelector('[aria-label="Note"]') as HTMLTextAreaElement | null
              )?.value?.includes('Changed on the laptop') ||
              document.querySelector('.cm-content')?.textContent?.includes('Changed on the laptop'),
          );
        });
      },
    },
    {
      name: 'live: a change saved elsewhere while typing here is offered, not written over',
      run: async () => {
        // The phone is typing (its save waits for a pause in the typing) when the laptop saves.
        await editor(phone).click();
        await phone.keyboard.press('End');
        const typing = phone.keyboard.type(' Typed on the phone', { delay: 150 });
        const answered = saved(laptop);
        await editor(laptop).fill('Changed again on the laptop.');
        await answered;
        await typing;
        const alert = phone.getByRole('alert').filter({ hasText: 'Changed elsewhere' });
        await alert.waitFor({ timeout: PUSH_LIMIT_MS });
        const text = await editor(phone).innerText();
        if (!text.includes('Typed on the phone')) fail(`the phone's text was replaced: "${text}"`);
        await alert.getByRole('button', { name: 'Take the other version' }).click();
        await phone.getByText('Changed again on the laptop.').waitFor();
      },
    },
    {
      name: 'live: a note deleted on one device is said to be deleted on the other',
      run: async () => {
        await laptop.getByRole('button', { name: /^Actions for / }).click();
        await laptop.getByRole('menuitem', { name: 'Delete' }).click();
        await laptop
          .getByRole('alertdialog', { name: 'Delete this note?' })
          .getByRole('button', { name: 'Delete note' })
          .click();
        await laptop.waitForURL(new URL('/', baseUrl).href);
        await phone.getByRole('alert').filter({ hasText: 'Deleted elsewhere' }).waitFor();
      },
    },
  ];

  const outcome = await runSteps(laptop, steps, {
    timeoutMs: options.timeoutMs,
    name: 'noted-live-failure',
  });
  await laptop.context().close();
  await phone.context().close();
  return outcome;
};
