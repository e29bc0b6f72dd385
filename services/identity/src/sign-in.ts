import { createRequire } from 'node:module';
import express, { type Request, type Response, type Router } from 'express';
import type Provider from 'oidc-provider';
import type { Logger } from '@noted/kit';
import {
  hasControlCharacters,
  withoutControlCharacters,
  isPlausibleEmail,
  MAX_NAME_LENGTH,
  type AccountStore,
} from './accounts.js';
import { API_RESOURCE, GRANTED_SCOPE, LOGIN_ACTIONS } from './constants.js';
import { FONT_PATH, type Page, type Pages } from './pages.js';
import { refusalMessage, type SignInLimits } from './sign-in-limits.js';

interface SignInDeps {
  provider: Provider;
  accounts: AccountStore;
  webOrigins: readonly string[];
  limits: SignInLimits;
  logger: Logger;
  pages: Pages;
}

const send = (res: Response, status: number, page: Page) => {
  res
    .status(status)
    .set({ 'content-security-policy': page.csp, 'cache-control': 'no-store' })
    .type('html')
    .send(page.html);
};

/** Inter, the app's typeface (Latin), as @fontsource ships it to the app's own build. */
const fontFile = createRequire(import.meta.url).resolve(
  '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
);

const field = (body: unknown, name: string): string => {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The development sign-in page, oidc-provider's "interaction": an email and a display name,
 * no password. The interaction uid in the path must match the interaction cookie, which
 * oidc-provider set SameSite=Lax on the redirect here, so another site cannot post the form.
 */
export const signInRouter = ({
  provider,
  accounts,
  webOrigins,
  limits,
  logger,
  pages: { errorPage, signInPage },
}: SignInDeps): Router => {
  const router = express.Router();
  const path = `${LOGIN_ACTIONS}/:uid`;

  const expired = (res: Response) =>
    send(
      res,
      400,
      errorPage(
        'invalid_request',
        'This sign-in page has expired. Go back to Noted and sign in again.',
      ),
    );

  router.get(FONT_PATH, (_req, res) => {
    // The file changes only with the package: a day in caches, then revalidated.
    res.sendFile(fontFile, { maxAge: '1d', headers: { 'content-type': 'font/woff2' } });
  });

  const currentInteraction = async (req: Request, res: Response) => {
    try {
      const interaction = await provider.interactionDetails(req, res);
      return interaction.uid === req.params.uid ? interaction : undefined;
    } catch {
      return undefined;
    }
  };

  router.get(path, async (req, res) => {
    const interaction = await currentInteraction(req, res);
    if (!interaction) return expired(res);

    if (interaction.prompt.name === 'login') {
      const hint = interaction.params.login_hint;
      const email = typeof hint === 'string' ? hint : '';
      send(
        res,
        200,
        signInPage({
          action: req.originalUrl.split('?')[0] ?? '',
          email,
          name: accounts.byEmail(email)?.name,
          formTargets: webOrigins,
        }),
      );
      return;
    }

    // Any other prompt is consent, which first-party clients are given without asking.
    const { session, params } = interaction;
    const clientId = typeof params.client_id === 'string' ? params.client_id : '';
    if (!session) return expired(res);
    const existing = interaction.grantId
      ? await provider.Grant.find(interaction.grantId)
      : undefined;
    const grant = existing ?? new provider.Grant({ accountId: session.accountId, clientId });
    grant.addOIDCScope(GRANTED_SCOPE);
    grant.addResourceScope(API_RESOURCE, GRANTED_SCOPE);
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  });

  router.post(path, express.urlencoded({ extended: false, limit: '8kb' }), async (req, res) => {
    const interaction = await currentInteraction(req, res);
    if (!interaction || interaction.prompt.name !== 'login') return expired(res);

    const email = field(req.body, 'email').trim();
    const name = field(req.body, 'name').trim();
    const action = req.originalUrl.split('?')[0] ?? '';
    // The form asks for no password; it still refuses an account or an address that failed
    // too often (here or through the password grant), and counts its refusals by address.
    const refusal = limits.refusal(email, req.ip);
    if (refusal) {
      res.set('retry-after', String(refusal.retryAfterSeconds));
      send(
        res,
        429,
        signInPage({
          action,
          email: withoutControlCharacters(email),
          name: withoutControlCharacters(name),
          error: refusalMessage(refusal),
          formTargets: webOrigins,
        }),
      );
      return;
    }
    const problem = !isPlausibleEmail(email.toLowerCase())
      ? 'Enter an email address, such as ada@example.com.'
      : name.length > MAX_NAME_LENGTH
        ? `Keep the display name to ${MAX_NAME_LENGTH} characters or fewer.`
        : hasControlCharacters(name)
          ? 'The display name can only hold printable characters.'
          : undefined;
    if (problem) {
      limits.failed(undefined, req.ip);
      send(
        res,
        400,
        signInPage({
          action,
          email: withoutControlCharacters(email),
          name: withoutControlCharacters(name),
          error: problem,
          formTargets: webOrigins,
        }),
      );
      return;
    }

    const account = await accounts.signIn(email, name || undefined);
    logger.info({ userSub: account.sub }, 'signed in (development identity provider)');
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false },
    );
  });

  return router;
};
