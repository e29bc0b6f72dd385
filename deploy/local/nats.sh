#!/usr/bin/env bash
# Runs nats-server with JetStream on 127.0.0.1:${NATS_PORT:-4222}, for contract and
# integration tests. Safe to run again.
# Usage: eval "$(deploy/local/nats.sh)"   # sets TEST_NATS_URL
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

port="${NATS_PORT:-4222}"
base="$NOTED_INFRA_DIR/nats-$port"
pidfile="$base/nats.pid"
log="$NOTED_INFRA_DIR/nats-$port.log"

if ! command -v nats-server >/dev/null 2>&1; then
  apt_install nats-server
  command -v nats-server >/dev/null 2>&1 || fail "nats-server not found after install"
fi

# The server's INFO line says whether JetStream is on.
jetstream_ready() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    IFS= read -r -t 2 line <&3 || exit 1
    [[ "$line" == INFO* && "$line" == *'"jetstream":true'* ]]
  )
}

ours_running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

if ours_running; then
  echo "nats: already running on port $port" >&2
else
  if port_open "$port"; then
    fail "port $port is taken by another process; set NATS_PORT to a free port"
  fi
  mkdir -p "$base/store"
  # Noted's events carry whole notes (up to ~3 MB); NATS takes 1 MB by default.
  echo 'max_payload: 8MB' >"$base/nats.conf"
  setsid nats-server -c "$base/nats.conf" -js -sd "$base/store" -a 127.0.0.1 -p "$port" \
    -P "$pidfile" -l "$log" \
    </dev/null >>"$log" 2>&1 &
  echo "nats: starting on port $port (log $log)" >&2
fi

for _ in $(seq 1 100); do
  if jetstream_ready 2>/dev/null; then
    echo "export TEST_NATS_URL=nats://127.0.0.1:$port"
    exit 0
  fi
  sleep 0.1
done
fail "nats-server on 127.0.0.1:$port did not answer with JetStream enabled within 10 s, see $log"
