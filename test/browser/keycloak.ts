/**
 * The app against a real Keycloak, in headless Chromium: sign in on Keycloak's own login page
 * (noted-web, authorization code with PKCE S256), create a note and see it in the list, stay
 * signed in across a reload, sign out (which ends the Keycloak session too), and sign up on
 * Keycloak's registration page. The app must run with KEYCLOAK_URL=$TEST_KEYCLOAK_URL
 * (deploy/local/keycloak-browser.sh starts both).
 *
 *   BASE_URL=http://localhost:18080 TEST_KEYCLOAK_URL=... TEST_KEYCLOAK_ADMIN_PASSWORD=... \
 *     node --conditions=@noted/source --import tsx test/browser/keycloak.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { keycloakAdmin, testKeycloak, type KeycloakUser } from '@noted/testing';
import { signOutStep, type Step } from './shell.js';
import { launchChromium, openPage, runSteps } from './steps.js';

const baseUrl = new URL(process.env.BASE_URL ?? 'http://localhost:18080');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const stepTimeoutMs = 60_000;
const screenshotPath = path.resolve('test-results/browser/keycloak.png');

const fail = (message: string): never => {
  throw new Error(message);
};

process.env.NOTED_REQUIRE_KEYCLOAK = '1';
const keycloak = testKeycloak() ?? fail('TEST_KEYCLOAK_URL is not set');
const keycloakOrigin = new URL(keycloak.url).origin;
const realmUrl = `${keycloak.url}/realms/noted`;
const admin = keycloakAdmin(keycloak);

const suffix = randomUUID().slice(0, 8);
const noteTitle = `Keycloak check ${suffix}`;
const newcomer = {
  email: `kc-newcomer-${suffix}@example.com`,
  password: `pw-${randomUUID()}`,
  firstName: 'Newcomer',
  lastName: `Signup ${suffix}`,
};
let member: KeycloakUser | undefined;
const created: string[] = [];
const pageErrors: string[] = [];
/** Authorization requests the browser sent to Keycloak, and the bearer tokens sent to the API. */
const authorizationRequests: URL[] = [];
const apiTokens: string[] = [];

const accountButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Account: / });

const noteArticle = (page: Page) => page.getByRole('article', { name: noteTitle });

/** From the signed-out app to Keycloak's login page, through the app's sign-in dialog. */
const goToKeycloakLogin = async (page: Page) => {
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('dialog', { name: 'Sign in to Noted' })
    .getByRole('button', { name: 'Continue to sign in' })
    .click();
  await page.waitForURL((url) => url.origin === keycloakOrigin);
  // Keycloak's own theme: these ids are its login form's.
  await page.locator('#kc-form-login').waitFor();
  if (!new URL(page.url()).pathname.startsWith('/realms/noted/')) {
    fail(`the login page is ${page.url()}, not realm noted's`);
  }
};

/** Back in the app, signed in, its header naming the user. */
const signedInAs = async (page: Page, name: string) => {
  await page.waitForURL((url) => url.origin === baseUrl.origin);
  await accountButton(page).waitFor();
  const header = (await page.getByRole('banner').innerText()).trim();
  if (!header.includes(name)) fail(`the header does not name ${name}: "${header}"`);
};

const steps: Step[] = [
  {
    name: 'has a user in realm noted, made with the admin REST API',
    run: async () => {
      member = await admin.createUser('noted', { firstName: 'Keycloak', lastName: 'Member' });
      created.push(member.id);
    },
  },
  {
    name: 'opens the app signed out',
    run: async (page) => {
      const response = await page.goto(baseUrl.href);
      if (!response?.ok()) fail(`${baseUrl.href} answered ${response?.status() ?? 'nothing'}`);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).waitFor();
    },
  },
  {
    name: "signs in on Keycloak's own login page (PKCE S256) and comes back signed in",
    run: async (page) => {
      const user = member ?? fail('no user');
      await goToKeycloakLogin(page);
      await page.locator('#username').fill(user.email);
      await page.locator('#password').fill(user.password);
      await page.locator('#kc-login').click();
      await signedInAs(page, 'Keycloak Member');
      const login = authorizationRequests.at(-1) ?? fail('no authorization request was seen');
      const params = login.searchParams;
      if (params.get('client_id') !== 'noted-web') fail(`client_id is ${params.get('client_id')}`);
      if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) {
        fail(`the authorization request has no S256 code challenge: ${login.search}`);
      }
      const address = new URL(page.url());
      if (address.pathname !== '/' || address.search) {
        fail(`after sign-in the address is ${address.href}, expected ${baseUrl.origin}/`);
      }
    },
  },
  {
    name: 'creates a note in the composer and sees it first in the list',
    run: async (page) => {
      await page.getByLabel('Title').fill(noteTitle);
      await page.getByLabel('Note', { exact: true }).fill('Written after signing in at Keycloak.');
      await page.getByLabel('Note', { exact: true }).press('Control+Enter');
      await noteArticle(page).waitFor();
      const first = await page.getByRole('article').first().getByRole('heading').innerText();
      if (first !== noteTitle) fail(`the first note is "${first}", expected "${noteTitle}"`);
    },
  },
  {
    name: "sent the API Keycloak's access token for noted-web, with noted-api in its audience",
    run: async () => {
      const token = apiTokens.at(-1) ?? fail('no API request carried a bearer token');
      const claims = decodeJwt(token);
      if (claims.iss !== realmUrl) fail(`the token's issuer is ${claims.iss}, not ${realmUrl}`);
      if (claims.azp !== 'noted-web') fail(`the token's azp is ${claims.azp}`);
      if (![claims.aud].flat().includes('noted-api')) fail(`the token's aud is ${claims.aud}`);
      if (claims.email !== member?.email) fail(`the token's email is ${claims.email}`);
    },
  },
  {
    name: 'is still signed in after a reload (the session check at Keycloak), the note listed',
    run: async (page) => {
      await page.reload();
      await accountButton(page).waitFor();
      await noteArticle(page).waitFor();
      await mkdir(path.dirname(screenshotPath), { recursive: true });
      await page.screenshot({ path: screenshotPath, fullPage: true });
    },
  },
  signOutStep(baseUrl),
  {
    name: 'signing in again asks for the password: signing out ended the Keycloak session',
    run: async (page) => {
      await goToKeycloakLogin(page);
      await page.locator('#username').waitFor();
    },
  },
  {
    name: "signs up on Keycloak's registration page and arrives in the app signed in",
    run: async (page) => {
      await page.getByRole('link', { name: 'Register' }).click();
      await page.locator('#kc-register-form').waitFor();
      await page.locator('#email').fill(newcomer.email);
      await page.locator('#password').fill(newcomer.password);
      await page.locator('#password-confirm').fill(newcomer.password);
      await page.locator('#firstName').fill(newcomer.firstName);
      await page.locator('#lastName').fill(newcomer.lastName);
      await page.locator('#kc-register-form [type=submit]').click();
      await signedInAs(page, `${newcomer.firstName} ${newcomer.lastName}`);
      await page.getByLabel('Title').waitFor();
    },
  },
  {
    name: 'raised no uncaught errors in the page',
    run: async () => {
      if (pageErrors.length > 0) fail(pageErrors.join('\n'));
    },
  },
];

const cleanUp = async () => {
  const newcomerId = await admin.findUserByEmail('noted', newcomer.email).catch(() => undefined);
  if (newcomerId) created.push(newcomerId);
  for (const id of created) {
    await admin.deleteUser('noted', id).catch((error: unknown) => {
      console.error(`could not delete Keycloak user ${id}: ${String(error)}`);
    });
  }
};

const main = async (): Promise<number> => {
  let passed = 0;
  let failed = 0;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(chromiumPath, stepTimeoutMs);
    const page = await openPage(browser, stepTimeoutMs, pageErrors);
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === keycloakOrigin && url.pathname.endsWith('/protocol/openid-connect/auth')) {
        authorizationRequests.push(url);
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers().authorization ?? '')?.[1];
      if (url.origin === baseUrl.origin && bearer) apiTokens.push(bearer);
    });

    const outcome = await runSteps(page, steps, {
      timeoutMs: stepTimeoutMs,
      name: 'noted-keycloak-failure',
    });
    passed += outcome.passed;
    failed += outcome.failed;
  } catch (error) {
    failed += 1;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`FAILED starting Chromium at ${chromiumPath}\n  ${message}`);
  } finally {
    await browser?.close();
    await cleanUp();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
};

process.exitCode = await main();
