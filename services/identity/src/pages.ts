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

/** Where, under the realm path, the pages' typeface is served (`fontRouter` in sign-in.ts). */
export const FONT_PATH = '/login-actions/assets/inter-latin-wght.woff2';

/**
 * The look of Noted (libs/ui's tokens.css, copied: these pages are served without the app's
 * bundles): Inter, cool gray and green, light and dark as the system says (a page of the
 * provider cannot see the app's theme choice).
 */
const styleOf = (fontUrl: string) =>
  [
    `@font-face{font-family:'Inter Variable';font-style:normal;font-display:swap;font-weight:100 900;src:url(${fontUrl}) format('woff2-variations');unicode-range:U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD}`,
    ":root{color-scheme:light dark;--font-sans:'Inter Variable',Inter,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC','Noto Sans SC',sans-serif,'Apple Color Emoji','Segoe UI Emoji';--font-mono:ui-monospace,SFMono-Regular,'SF Mono',Menlo,Consolas,'Liberation Mono',monospace;" +
      '--bg:#f9fafb;--surface:#fff;--text:#111827;--strong:#030712;--muted:#4b5563;--subtle:#6b7280;--border:#e5e7eb;--border-strong:#d1d5db;--input-border:#c9ced6;' +
      '--accent:#15803d;--accent-hover:#166534;--accent-text:#fff;--accent-fg:#15803d;--focus:#16a34a;' +
      '--danger:#b91c1c;--danger-fg:#b91c1c;--danger-bg:#fef2f2;--danger-border:#fecaca;--info:#0f766e;--info-bg:#f0fdfa;--info-border:#99f6e4;' +
      '--shadow-xs:0 1px 2px rgb(16 24 40/5%);--shadow-sm:0 1px 2px rgb(16 24 40/6%),0 1px 3px rgb(16 24 40/8%);--shadow-lg:0 12px 24px -6px rgb(16 24 40/14%),0 4px 8px -4px rgb(16 24 40/6%)}',
    '@media (prefers-color-scheme:dark){:root{--bg:#101318;--surface:#161a20;--text:#e6e8ec;--strong:#f7f8fa;--muted:#a3aab6;--subtle:#7c8493;--border:#262b34;--border-strong:#343a45;--input-border:#3a414d;' +
      '--accent:#22c55e;--accent-hover:#4ade80;--accent-text:#052e16;--accent-fg:#4ade80;--focus:#4ade80;' +
      '--danger:#dc2626;--danger-fg:#fca5a5;--danger-bg:rgb(239 68 68/12%);--danger-border:rgb(239 68 68/35%);--info:#5eead4;--info-bg:rgb(20 184 166/12%);--info-border:rgb(20 184 166/35%);' +
      '--shadow-xs:0 1px 2px rgb(0 0 0/40%);--shadow-sm:0 1px 3px rgb(0 0 0/45%);--shadow-lg:0 16px 32px -8px rgb(0 0 0/60%)}}',
    '*,*::before,*::after{box-sizing:border-box}',
    'html{-webkit-text-size-adjust:100%;text-size-adjust:100%}',
    "body{margin:0;min-height:100vh;min-height:100dvh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:1.5rem;padding:2.5rem 1rem;background:var(--bg);color:var(--text);font-family:var(--font-sans);font-size:.9375rem;line-height:1.55;font-feature-settings:'cv11','ss01';-webkit-font-smoothing:antialiased;-moz-osx-font-smoothing:grayscale}",
    '.brand{display:inline-flex;align-items:center;gap:.625rem;color:var(--strong);font-size:1.25rem;font-weight:700;letter-spacing:-.025em;line-height:1}',
    '.brand svg{display:block;width:2.25rem;height:2.25rem;border-radius:.55rem;box-shadow:var(--shadow-sm)}',
    'main{width:100%;max-width:25rem;display:grid;gap:1.25rem;padding:2rem;background:var(--surface);border:1px solid var(--border);border-radius:16px;box-shadow:var(--shadow-lg)}',
    'h1{margin:0;color:var(--strong);font-size:1.5rem;font-weight:600;line-height:1.25;letter-spacing:-.025em}',
    'p{margin:0}',
    '.lede{margin-top:-.75rem;color:var(--muted)}',
    '.callout{display:flex;gap:.75rem;align-items:flex-start;padding:.75rem 1rem;border:1px solid var(--info-border);border-radius:12px;background:var(--info-bg);font-size:.8125rem;line-height:1.5}',
    '.callout svg{flex:none;width:1.125rem;height:1.125rem;margin-top:.0625rem;color:var(--info)}',
    '.callout.error{border-color:var(--danger-border);background:var(--danger-bg);color:var(--text);font-size:.875rem}',
    '.callout.error svg{color:var(--danger-fg)}',
    '.callout strong{display:block;color:var(--strong);font-weight:600}',
    'form{display:grid;gap:1rem}',
    '.field{display:grid;gap:.375rem}',
    'label{color:var(--strong);font-size:.875rem;font-weight:500}',
    '.optional{color:var(--subtle);font-weight:400}',
    'input{width:100%;min-height:2.75rem;margin:0;padding:.5rem .75rem;border:1px solid var(--input-border);border-radius:8px;background:var(--surface);color:var(--text);font:inherit;font-size:1rem;line-height:1.4;box-shadow:var(--shadow-xs);transition:border-color .12s ease,box-shadow .12s ease}',
    'input::placeholder{color:var(--subtle);opacity:1}',
    'input:hover:not(:focus){border-color:var(--border-strong)}',
    'input:focus{outline:none;border-color:var(--focus);box-shadow:0 0 0 3px color-mix(in srgb,var(--focus) 25%,transparent)}',
    "input[aria-invalid='true']{border-color:var(--danger)}",
    "input[aria-invalid='true']:focus{box-shadow:0 0 0 3px color-mix(in srgb,var(--danger) 22%,transparent)}",
    '.hint{color:var(--muted);font-size:.8125rem}',
    'button{display:flex;align-items:center;justify-content:center;width:100%;min-height:2.75rem;margin-top:.5rem;padding:0 1rem;border:1px solid var(--accent);border-radius:8px;background:var(--accent);color:var(--accent-text);font:inherit;font-size:.9375rem;font-weight:600;cursor:pointer;box-shadow:var(--shadow-xs),inset 0 1px 0 rgb(255 255 255/12%);transition:background-color .12s ease,border-color .12s ease}',
    'button:hover{background:var(--accent-hover);border-color:var(--accent-hover)}',
    'button:active{transform:translateY(.5px)}',
    'button:focus-visible,a:focus-visible{outline:2px solid var(--focus);outline-offset:2px}',
    'a{color:var(--accent-fg);font-weight:500;text-decoration-thickness:1px;text-underline-offset:.18em}',
    'a:hover{text-decoration-thickness:2px}',
    'code{font-family:var(--font-mono);font-size:.875em;padding:.0625rem .3rem;border-radius:4px;background:var(--bg);border:1px solid var(--border)}',
    '@media (max-width:30rem){body{justify-content:flex-start;padding:2rem .75rem}main{padding:1.5rem 1.25rem;border-radius:12px}}',
    '@media (prefers-reduced-motion:reduce){*{transition:none!important}}',
  ].join('');

/** The Noted mark (libs/ui's BrandMark) and the name, as the app's header draws them. */
const BRAND = `<div class="brand"><svg viewBox="0 0 512 512" aria-hidden="true" focusable="false"><rect width="512" height="512" rx="120" fill="var(--accent)"/><path d="M160 368V144h42l108 154V144h42v224h-42L202 214v154z" fill="var(--accent-text)"/></svg>Noted</div>`;

/** Lucide's info and circle-alert, the icons of the app's callouts. */
const icon = (paths: string) =>
  `<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="10"/>${paths}</svg>`;
const INFO_ICON = icon('<path d="M12 16v-4"/><path d="M12 8h.01"/>');
const ALERT_ICON = icon(
  '<line x1="12" x2="12" y1="8" y2="12"/><line x1="12" x2="12.01" y1="16" y2="16"/>',
);

interface LayoutOptions {
  title: string;
  body: string;
  /** Inline scripts the page may run (each allowed by its hash). */
  script?: string;
  /** Where forms on the page, and the redirects that follow them, may go. */
  formTargets: readonly string[];
}

export interface SignInPageOptions {
  action: string;
  email?: string;
  name?: string;
  error?: string;
  formTargets: readonly string[];
}

/** The provider's pages, styled by one stylesheet allowed by its hash. */
export interface Pages {
  signInPage: (options: SignInPageOptions) => Page;
  /** Wraps oidc-provider's logout form; submits it on its own when `autoSubmit` is set. */
  signOutPage: (form: string, autoSubmit: boolean, formTargets: readonly string[]) => Page;
  signedOutPage: (returnTo: string | undefined) => Page;
  errorPage: (error: string, description: string | undefined) => Page;
}

/** The pages of a provider whose realm is at `realmPath` (its typeface is served there). */
export const createPages = (realmPath: string): Pages => {
  const style = styleOf(`${realmPath}${FONT_PATH}`);
  const styleHash = sha256(style);

  const layout = ({ title, body, script, formTargets }: LayoutOptions): Page => {
    const csp = [
      "default-src 'none'",
      `style-src ${styleHash}`,
      "font-src 'self'",
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
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${BRAND}
<main>
${body}
</main>${script ? `\n<script>${script}</script>` : ''}
</body>
</html>`;
    return { html, csp };
  };

  const signInPage = ({
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
<p class="lede">Enter your email address to continue.</p>
<div class="callout">${INFO_ICON}<p><strong>No password on this server</strong>This is the development sign-in: any email address signs in as that person. A production deployment signs in through Keycloak.</p></div>
${error ? `<div class="callout error" id="sign-in-error" role="alert">${ALERT_ICON}<p>${escapeHtml(error)}</p></div>\n` : ''}<form method="post" action="${escapeHtml(action)}">
<div class="field">
<label for="email">Email</label>
<input id="email" name="email" type="email" inputmode="email" autocomplete="email" autocapitalize="none" spellcheck="false" required autofocus placeholder="ada@example.com" value="${escapeHtml(email)}"${error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : ''}>
</div>
<div class="field">
<label for="name">Display name <span class="optional">(optional)</span></label>
<input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${escapeHtml(name)}" aria-describedby="name-hint">
<p class="hint" id="name-hint">Shown in Noted; without it, the part of your email before the @ is used.</p>
</div>
<button type="submit">Sign in</button>
</form>`,
    });

  const signOutPage = (form: string, autoSubmit: boolean, formTargets: readonly string[]): Page =>
    layout({
      title: 'Signing out of Noted',
      formTargets,
      script: autoSubmit ? "document.getElementById('op.logoutForm').submit();" : undefined,
      body: `<h1>Sign out of Noted</h1>
<p class="lede">${autoSubmit ? 'Signing you out…' : 'Do you want to sign out of Noted on this browser?'}</p>
${form.replace('</form>', '<input type="hidden" name="logout" value="yes"><button type="submit">Sign out</button></form>')}`,
    });

  const signedOutPage = (returnTo: string | undefined): Page =>
    layout({
      title: 'Signed out of Noted',
      formTargets: [],
      body: `<h1>You have signed out</h1>
<p class="lede">You are no longer signed in to Noted on this browser.</p>${
        returnTo ? `\n<p><a href="${escapeHtml(returnTo)}">Back to Noted</a></p>` : ''
      }`,
    });

  const errorPage = (error: string, description: string | undefined): Page =>
    layout({
      title: 'Sign-in problem',
      formTargets: [],
      body: `<h1>Sign-in problem</h1>
<div class="callout error" role="alert">${ALERT_ICON}<p>${escapeHtml(description ?? error)}</p></div>
<p class="hint">Error code: <code>${escapeHtml(error)}</code>. Go back to Noted and try again.</p>`,
    });

  return { signInPage, signOutPage, signedOutPage, errorPage };
};
