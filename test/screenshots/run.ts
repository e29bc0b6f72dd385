/**
 * Pictures of every screen, to look at: signs in (a fresh account), seeds notes with tags,
 * links, todos and an image, then saves a PNG of every route of the spec and every dialog in
 * the light and dark theme at 1280×800 and 390×844, named `<shot>.<theme>.<width>.png`.
 * Shots of many notes are taken in accounts of their own, seeded by bulk.ts.
 *
 *   BASE_URL=http://localhost:8080 npm run screenshots
 *   SHOTS='notes|dialog' THEMES=dark WIDTHS=390 npm run screenshots   (a subset)
 *   AXE=1 npm run screenshots   (each screen checked with axe-core too)
 *   CONSOLE=1 npm run screenshots   (the pages' console warnings and errors, counted)
 *
 * The billing shots answer the billing calls in the page (see billing.ts); start the server with
 * STRIPE_PUBLISHABLE_KEY set so the CSP lets the stand-in Stripe.js load.
 *
 * Written to `test-results/screenshots` (SCREENSHOTS_DIR to change). A shot that cannot be
 * taken is reported and the run goes on; the exit code says whether every shot was taken.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { expectAccessible } from '../browser/axe.js';
import { seedBulk } from './bulk.js';
import { shots, type Seeded, type Shot } from './shots.js';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:8080');
const outDir = path.resolve(process.env.SCREENSHOTS_DIR ?? 'test-results/screenshots');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.env.SHOTS ? new RegExp(process.env.SHOTS) : undefined;
const themes = (process.env.THEMES ?? 'light,dark').split(',') as ('light' | 'dark')[];
const widths = (process.env.WIDTHS ?? '1280,390').split(',').map(Number);
const heights: Record<number, number> = { 1280: 800, 390: 844 };
/** AXE=1 checks each screen with axe-core before its picture; a serious violation fails the shot. */
const checkAccessibility = process.env.AXE === '1';
/** CONSOLE=1 prints the pages' console warnings and errors, each once with how often it came. */
const printConsole = process.env.CONSOLE === '1';
const consoleSeen = new Map<string, number>();

const email = `screens-${randomUUID().slice(0, 8)}@example.com`;
const displayName = 'Ada Lovelace';
const password = process.env.NOTED_DEV_PASSWORD ?? 'noted';

const fail = (message: string): never => {
  throw new Error(message);
};

const token = async (username = email): Promise<string> => {
  const response = await fetch(new URL('/realms/noted/protocol/openid-connect/token', baseUrl), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'noted-cli',
      username,
      password,
    }),
  });
  if (!response.ok) fail(`the token request answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
};

const api = async <T>(
  bearer: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> => {
  const response = await fetch(new URL(route, baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body instanceof FormData || body === undefined
        ? {}
        : { 'content-type': 'application/json' }),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  // A large account makes more requests a minute than one person may: it waits as asked.
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after')) || 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
    return api<T>(bearer, method, route, body);
  }
  if (!response.ok)
    fail(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
};

/** Notes a person might have after a week: tags, a pinned one, links, todos, an image. */
const seed = async (bearer: string): Promise<Seeded> => {
  type Created = { id: string; title: string };
  const create = (title: string, note: string, tags: string[]) =>
    api<Created>(bearer, 'POST', '/api/note/create/direct', { title, note, tags });
  const plan = await create(
    'Q4 planning',
    [
      '## Goals',
      '',
      '- Ship the **offline editor** before the conference',
      '- Cut the sign-up flow to two steps',
      '',
      '## Open questions',
      '',
      '- [ ] Ask Grace about the sync budget',
      '- [x] Book the room for Thursday',
      '- [ ] Draft the launch post',
      '',
      'See [[Reading list]] for background.',
    ].join('\n'),
    ['work', 'planning'],
  );
  const reading = await create(
    'Reading list',
    [
      '> The best way to have a good idea is to have lots of ideas. — Linus Pauling',
      '',
      '1. *How to Take Smart Notes*, Sönke Ahrens',
      '2. *The Design of Everyday Things*, Don Norman',
      '3. *Thinking in Systems*, Donella Meadows',
    ].join('\n'),
    ['books'],
  );
  const whiteboard = await create(
    'Whiteboard from the design review',
    'The flow we agreed on: capture first, organise later. Tags are cheap; links are earned.',
    ['work', 'design'],
  );
  await create('周末计划', '去图书馆还书，买菜，给奶奶打电话。\n\n- [ ] 整理照片\n- [ ] 修自行车', [
    '生活',
  ]);
  await create('Mechanic', 'New brake pads and a tyre rotation: $340. Next service at 60,000 km.', [
    'car',
    'receipts',
  ]);
  await create(
    'Idea: voice memos to tasks',
    'Record on the walk home, let Noted pull out the todos. `byaudio` then the writer.\n\n```ts\nconst todos = extract(memo);\n```',
    ['ideas'],
  );
  await api(bearer, 'POST', '/api/note/pin', { noteId: plan.id });
  const shared = await api<{ url: string }>(bearer, 'POST', '/api/note/share', {
    noteId: reading.id,
  });
  const png = await sharp({
    create: { width: 1200, height: 800, channels: 3, background: { r: 240, g: 244, b: 248 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="1200" height="800" xmlns="http://www.w3.org/2000/svg">
            <rect x="80" y="80" width="320" height="160" rx="16" fill="#bbf7d0" stroke="#15803d" stroke-width="6"/>
            <rect x="560" y="300" width="320" height="160" rx="16" fill="#e0e7ff" stroke="#4338ca" stroke-width="6"/>
            <path d="M400 160 C 500 160, 480 380, 560 380" stroke="#111827" stroke-width="6" fill="none"/>
            <text x="120" y="175" font-size="48" font-family="sans-serif">Capture</text>
            <text x="600" y="395" font-size="48" font-family="sans-serif">Organise</text>
          </svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'whiteboard.png');
  await api(bearer, 'POST', `/api/notes/${whiteboard.id}/images`, form);
  return {
    noteId: plan.id,
    imageNoteId: whiteboard.id,
    linkedNoteId: reading.id,
    linkedNoteTitle: reading.title,
    sharedPath: new URL(shared.url).pathname,
  };
};

/** Signs in through the identity provider's form, as a person would, and keeps the session. */
const signIn = async (browser: Browser, address = email) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(baseUrl.href);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue to sign in' }).click();
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Display name').fill(displayName);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Account: / })
    .waitFor();
  if (address !== email) {
    const state = await context.storageState();
    await context.close();
    return { state, chatPath: undefined };
  }
  // One conversation in the chat history, asked as a person would.
  await page.goto(new URL('/chat', baseUrl).href);
  await page.getByRole('textbox', { name: 'Your question' }).fill('How much did the car cost?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  // The answer is kept once complete: leaving while it streams (the model loads on the first
  // question) would stop it.
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: 60_000 });
  const chatPath = new URL(page.url()).pathname;
  const state = await context.storageState();
  await context.close();
  return { state, chatPath };
};

/** Waits until the page has settled: no loading texts, no busy regions, fonts and images in. */
export const settle = async (page: Page) => {
  await page
    .waitForFunction(
      () =>
        !document.querySelector(
          '.boot-status, .notes-status, [aria-busy="true"], .ui-skeleton, [data-loading]',
        ),
      null,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(250);
};

const takeShot = async (
  context: BrowserContext,
  shot: Shot,
  seeded: Seeded,
  file: string,
): Promise<void> => {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  try {
    await shot.routes?.(page);
    await page.goto(new URL(shot.path(seeded), baseUrl).href);
    await settle(page);
    if (shot.act) {
      await shot.act(page, seeded);
      await settle(page);
    }
    if (checkAccessibility) await expectAccessible(page, path.basename(file, '.png'));
    await page.screenshot({ path: file, fullPage: shot.fullPage ?? false });
  } finally {
    await page.close();
    await shot.after?.();
  }
};

const main = async (): Promise<number> => {
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      // A microphone that plays a tone, allowed without asking: the recorder's shots record.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  });
  let taken = 0;
  const failed: string[] = [];
  try {
    const seeded = await seed(await token());
    const { state, chatPath } = await signIn(browser);
    seeded.chatPath = chatPath;
    const chosen = shots.filter((shot) => !only || only.test(shot.name));
    // Each size of large account the chosen shots ask for, seeded once (bulk.ts).
    const accounts = new Map<number, Awaited<ReturnType<typeof signIn>>['state']>();
    for (const count of new Set(chosen.flatMap((shot) => shot.account ?? []))) {
      const address = email.replace('@', `-${count}@`);
      const bearer = await token(address);
      const started = Date.now();
      await seedBulk((method, route, body) => api(bearer, method, route, body), count);
      console.log(`seeded ${count} notes in ${((Date.now() - started) / 1_000).toFixed(1)} s`);
      accounts.set(count, (await signIn(browser, address)).state);
    }
    for (const width of widths) {
      for (const theme of themes) {
        const viewport = { width, height: heights[width] ?? 800 };
        const newContext = async (signedIn: boolean, storageState = state) => {
          const context = await browser.newContext({
            viewport,
            colorScheme: theme,
            serviceWorkers: 'block',
            ...(signedIn ? { storageState } : {}),
          });
          // Every shot starts from the same stored choices: this theme, the sidebar expanded, English.
          await context.addInitScript((value) => {
            localStorage.setItem('theme', value);
            localStorage.removeItem('sidebarCollapsed');
            localStorage.removeItem('locale');
          }, theme);
          // tsx compiles with keepNames: functions a shot runs in the page call __name.
          await context.addInitScript('globalThis.__name ??= (target) => target');
          if (printConsole) {
            context.on('console', (message) => {
              if (message.type() !== 'warning' && message.type() !== 'error') return;
              const line = `${message.type()}: ${message.text().split('\n')[0]}`;
              consoleSeen.set(line, (consoleSeen.get(line) ?? 0) + 1);
            });
          }
          return context;
        };
        const contexts = { signedIn: await newContext(true), signedOut: await newContext(false) };
        for (const shot of chosen) {
          const file = path.join(outDir, `${shot.name}.${theme}.${width}.png`);
          const shared = shot.signedOut ? contexts.signedOut : contexts.signedIn;
          const account = shot.account === undefined ? undefined : accounts.get(shot.account);
          const context =
            shot.ownContext || account ? await newContext(!shot.signedOut, account) : shared;
          try {
            await takeShot(context, shot, seeded, file);
            taken += 1;
          } catch (error) {
            // An accessibility failure lists its violations, one a line; other errors' first line.
            const message =
              error instanceof Error
                ? error.message.includes('accessibility violations')
                  ? error.message
                  : error.message.split('\n')[0]
                : String(error);
            failed.push(`${shot.name}.${theme}.${width}: ${message}`);
          } finally {
            if (context !== shared) await context.close();
          }
        }
        for (const context of Object.values(contexts)) await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`${taken} screenshots in ${path.relative(process.cwd(), outDir)}`);
  for (const [line, times] of consoleSeen) console.log(`console ×${times} ${line}`);
  for (const line of failed) console.error(`not taken: ${line}`);
  return failed.length === 0 ? 0 : 1;
};

process.exitCode = await main();
