import { createHash } from 'node:crypto';

/** A rendered page and the Content-Security-Policy that lets exactly it run. */
export interface Page {
  html: string;
  csp: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const STYLE = [
  ':root{color-scheme:light dark;--bg:#f5f6f8;--fg:#1c2230;--muted:#4f586a;--card:#fff;--border:#c9ced8;--accent:#2a55c9;--accent-fg:#fff;--error:#a8231b}',
  '@media (prefers-color-scheme:dark){:root{--bg:#12151b;--fg:#e8ebf1;--muted:#b3bccb;--card:#1b2029;--border:#444c5a;--accent:#8ab0ff;--accent-fg:#0b1020;--error:#ffb4ab}}',
  '*{box-sizing:border-box}',
  'body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1rem;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'main{width:100%;max-width:24rem;background:var(--card);border:1px solid var(--border);border-radius:12px;padding:2rem}',
  'h1{font-size:1.5rem;line-height:1.2;margin:0 0 1rem}',
  'p{margin:0 0 1rem;color:var(--muted)}',
  '.note{font-size:.875rem;border-left:3px solid var(--accent);padding-left:.75rem}',
  '.error{color:var(--error);font-weight:600}',
  'label{display:block;font-weight:600;margin:1rem 0 .25rem}',
  'input{width:100%;padding:.6rem .75rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--border);border-radius:8px}',
  '.hint{font-size:.875rem;margin:.25rem 0 0}',
  'button{margin-top:1.5rem;width:100%;padding:.7rem;font:inherit;font-weight:600;border:0;border-radius:8px;background:var(--accent);color:var(--accent-fg);cursor:pointer}',
  'input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  'a{color:var(--accent)}',
].join('');

const STYLE_HASH = sha256(STYLE);

interface LayoutOptions {
  title: string;
  body: string;
  /** Inline scripts the page may run (each allowed by its hash). */
  script?: string;
  /** Where forms on the page, and the redirects that follow them, may go. */
  formTargets: readonly string[];
}

const layout = ({ title, body, script, formTargets }: LayoutOptions): Page => {
  const csp = [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `script-src ${script ? sha256(script) : "'none'"}`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>${script ? `\n<script>${script}</script>` : ''}
</body>
</html>`;
  return { html, csp };
};

export interface SignInPageOptions {
  action: string;
  email?: string;
  name?: string;
  error?: string;
  formTargets: readonly string[];
}

export const signInPage = ({
  action,
  email = '',
  name = '',
  error,
  formTargets,
}: SignInPageOptions): Page =>
  layout({
    title: 'Sign in to Noted',
    formTargets,
    body: `<h1>Sign in to Noted</h1>
<p class="note">This is the development sign-in: enter any email address to use Noted as that person. No password is asked here; a production deployment signs in through Keycloak.</p>
${error ? `<p class="error" id="sign-in-error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required autofocus value="${escapeHtml(email)}"${error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : ''}>
<label for="name">Display name</label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${escapeHtml(name)}" aria-describedby="name-hint">
<p class="hint" id="name-hint">Optional. Shown in Noted; without it, the part of your email before the @ is used.</p>
<button type="submit">Sign in</button>
</form>`,
  });

/** Wraps oidc-provider's logout form; submits it on its own when `autoSubmit` is set. */
export const signOutPage = (
  form: string,
  autoSubmit: boolean,
  formTargets: readonly string[],
): Page =>
  layout({
    title: 'Signing out of Noted',
    formTargets,
    script: autoSubmit ? "document.getElementById('op.logoutForm').submit();" : undefined,
    body: `<h1>Sign out of Noted</h1>
<p>${autoSubmit ? 'Signing you out…' : 'Do you want to sign out of Noted?'}</p>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>')}`,
  });

export const signedOutPage = (returnTo: string | undefined): Page =>
  layout({
    title: 'Signed out of Noted',
    formTargets: [],
    body: `<h1>You have signed out</h1>
<p>You are no longer signed in to Noted on this browser.</p>${
      returnTo ? `\n<p><a href="${escapeHtml(returnTo)}">Back to Noted</a></p>` : ''
    }`,
  });

export const errorPage = (error: string, description: string | undefined): Page =>
  layout({
    title: 'Sign-in problem',
    formTargets: [],
    body: `<h1>Sign-in problem</h1>
<p class="error" role="alert">${escapeHtml(description ?? error)}</p>
<p>Error code: <code>${escapeHtml(error)}</code>. Go back to Noted and try again.</p>`,
  });
