#!/usr/bin/env bash
# Runs stripe-mock, Stripe's official stateless mock of its API (answers from the fixtures of
# its OpenAPI document), on a free port of 127.0.0.1, for the conformance test of the local
# Stripe server (libs/testing/src/stripe-server.conformance.test.ts). Built once from its Go
# module into $NOTED_CACHE_DIR/bin; the module and build caches live under $NOTED_CACHE_DIR/go.
# Safe to run again: a running stripe-mock is reused.
# Usage: eval "$(deploy/local/stripe-mock.sh)"   # sets STRIPE_MOCK_URL
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Pinned so every run answers from the same fixtures.
stripe_mock_version="v0.203.0"
bin="$NOTED_CACHE_DIR/bin/stripe-mock"
stamp="$NOTED_CACHE_DIR/bin/stripe-mock.version"
build_log="$NOTED_INFRA_DIR/stripe-mock-build.log"
base="$NOTED_INFRA_DIR/stripe-mock"
pidfile="$base/stripe-mock.pid"
portfile="$base/port"
log="$NOTED_INFRA_DIR/stripe-mock.log"

if [ ! -x "$bin" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$stripe_mock_version" ]; then
  go=/usr/local/go/bin/go
  [ -x "$go" ] || go="$(command -v go || true)"
  [ -n "$go" ] || fail "Go not found (looked for /usr/local/go/bin/go and go on PATH); stripe-mock is built from its Go module"
  echo "stripe-mock: building github.com/stripe/stripe-mock@$stripe_mock_version with $("$go" env GOVERSION), once (log $build_log)" >&2
  mkdir -p "$NOTED_CACHE_DIR/bin" "$NOTED_CACHE_DIR/go"
  # GOTOOLCHAIN=local: build with this Go, never download another toolchain. CGO off: a
  # static binary that needs no C compiler.
  env GOPATH="$NOTED_CACHE_DIR/go" GOMODCACHE="$NOTED_CACHE_DIR/go/pkg/mod" \
    GOCACHE="$NOTED_CACHE_DIR/go/cache" GOBIN="$NOTED_CACHE_DIR/bin" \
    GOTOOLCHAIN=local CGO_ENABLED=0 \
    "$go" install -trimpath -ldflags="-s -w" "github.com/stripe/stripe-mock@$stripe_mock_version" \
    >>"$build_log" 2>&1 ||
    fail "go install github.com/stripe/stripe-mock@$stripe_mock_version failed, see $build_log"
  [ -x "$bin" ] || fail "go install finished but $bin is missing, see $build_log"
  echo "$stripe_mock_version" >"$stamp"
fi

ours_running() {
  [ -f "$pidfile" ] && [ -f "$portfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

# stripe-mock answers 401 to a request without a key; with one, its customer fixture.
answers() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET /v1/customers/cus_probe HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer sk_test_probe\r\n\r\n' "$1" >&3
    IFS= read -r -t 2 line <&3 || exit 1
    [[ "$line" == HTTP/1.?' 200'* ]]
  )
}

if ours_running; then
  port="$(cat "$portfile")"
  echo "stripe-mock: already running on port $port" >&2
else
  # stripe-mock's own default is 12111; take the first free port from there (or STRIPE_MOCK_PORT).
  port="${STRIPE_MOCK_PORT:-}"
  if [ -n "$port" ]; then
    port_open "$port" && fail "port $port is taken by another process; unset STRIPE_MOCK_PORT to pick a free one"
  else
    for candidate in $(seq 12111 12199); do
      if ! port_open "$candidate"; then
        port="$candidate"
        break
      fi
    done
    [ -n "$port" ] || fail "no free port between 12111 and 12199; set STRIPE_MOCK_PORT"
  fi
  mkdir -p "$base"
  # Both listeners on the loopback interface: -http-port listens on every address, and HTTPS
  # stays on (on every address, port 12112) unless given an address of its own; port 0 lets
  # the system choose it, since only HTTP is used.
  setsid "$bin" -http-addr "127.0.0.1:$port" -https-addr 127.0.0.1:0 </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  echo "$port" >"$portfile"
  echo "stripe-mock: $stripe_mock_version starting on port $port (log $log)" >&2
fi

for _ in $(seq 1 100); do
  if answers "$port" 2>/dev/null; then
    echo "export STRIPE_MOCK_URL=http://127.0.0.1:$port"
    exit 0
  fi
  ours_running || fail "stripe-mock exited during startup, see $log"
  sleep 0.1
done
fail "stripe-mock on 127.0.0.1:$port did not answer within 10 s, see $log"
