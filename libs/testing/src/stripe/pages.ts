import type { StripeCheckoutSession, StripePrice, StripeSubscription } from './objects.js';

/** The two pages a user's browser is sent to: plain HTML, no scripts, nothing fetched. */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

const day = (timestamp: number | null) =>
  timestamp === null ? '-' : new Date(timestamp * 1000).toISOString().slice(0, 10);

const amount = (price: StripePrice) =>
  `${((price.unit_amount ?? 0) / 100).toFixed(2)} ${price.currency.toUpperCase()} / ${price.recurring?.interval}`;

export const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; }
dt { color: #555; }
form { display: inline; }
button, a.button { font: inherit; padding: 0.5rem 1rem; margin-right: 0.5rem; }
</style>
</head>
<body>
<p><small>Local Stripe test server</small></p>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;

export const messagePage = (title: string, message: string) =>
  page(title, `<p>${escapeHtml(message)}</p>`);

export const checkoutPage = (
  session: StripeCheckoutSession,
  price: StripePrice,
  trialDays: number | undefined,
) =>
  page(
    'Checkout',
    `<dl>
<dt>Plan</dt><dd>${escapeHtml(price.id)}</dd>
<dt>Price</dt><dd>${escapeHtml(amount(price))}</dd>
${trialDays ? `<dt>Trial</dt><dd>${trialDays} days free</dd>` : ''}
</dl>
<form method="post" action="/checkout/${encodeURIComponent(session.id)}/pay"><button type="submit">Pay</button></form>
${session.cancel_url ? `<a class="button" href="${escapeHtml(session.cancel_url)}">Back</a>` : ''}`,
  );

export const portalPage = (
  portalId: string,
  returnUrl: string | null,
  subscription: StripeSubscription | undefined,
) => {
  const back = returnUrl ? `<a class="button" href="${escapeHtml(returnUrl)}">Return</a>` : '';
  if (!subscription) return page('Your plan', `<p>No subscription.</p>${back}`);
  const item = subscription.items.data[0]!;
  const action = (name: string, label: string) =>
    `<form method="post" action="/portal/${encodeURIComponent(portalId)}/${name}"><button type="submit">${label}</button></form>`;
  const button =
    subscription.status === 'canceled'
      ? ''
      : subscription.cancel_at_period_end
        ? action('renew', 'Renew plan')
        : action('cancel', 'Cancel plan');
  return page(
    'Your plan',
    `<dl>
<dt>Plan</dt><dd>${escapeHtml(item.price.id)}</dd>
<dt>Price</dt><dd>${escapeHtml(amount(item.price))}</dd>
<dt>Status</dt><dd>${escapeHtml(subscription.status)}</dd>
<dt>Period end</dt><dd>${day(item.current_period_end)}</dd>
<dt>Cancels at period end</dt><dd>${subscription.cancel_at_period_end ? 'yes' : 'no'}</dd>
</dl>
${button}${back}`,
  );
};
