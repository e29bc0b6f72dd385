#!/usr/bin/env bash
# Paid plans in Chromium: starts the built app on embedded defaults with the local Stripe's
# settings (test/stripe/prices.ts), and runs test/browser/billing.ts, which starts that Stripe
# in its own process (its test clock ends a period) with webhooks to the app. Needs the build.
set -euo pipefail
cd "$(dirname "$0")/../.."
source deploy/local/common.sh
port="${BILLING_BROWSER_PORT:-18090}"
stripe_port="${BILLING_STRIPE_PORT:-12200}"
port_open "$stripe_port" && fail "port $stripe_port is taken; set BILLING_STRIPE_PORT"
settings="$(node --conditions=@noted/source --import tsx -e "
  import('./test/stripe/prices.ts').then(({ localStripeSettings }) => {
    for (const [name, value] of Object.entries(localStripeSettings('http://127.0.0.1:$stripe_port')))
      console.log(name + '=' + value);
  });")"
# shellcheck disable=SC2086 # NAME=value words
start_noted "$port" billing $settings
export BASE_URL="http://localhost:$port" STRIPE_PORT="$stripe_port"
node --conditions=@noted/source --import tsx test/browser/billing.ts ||
  { echo "--- noted log"; tail -80 "$log"; exit 1; }
