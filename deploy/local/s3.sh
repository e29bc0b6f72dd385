#!/usr/bin/env bash
# Runs an S3-compatible server on 127.0.0.1:${S3_PORT:-9000} for the object store contract
# suite: moto's S3 emulator (PyPI), installed once into a venv under the cache dir. MinIO is
# not packaged for Debian; point TEST_S3_ENDPOINT at a real MinIO instead when you have one.
# Safe to run again. Usage: eval "$(deploy/local/s3.sh)"
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

port="${S3_PORT:-9000}"
base="$NOTED_INFRA_DIR/s3-$port"
pidfile="$base/s3.pid"
log="$NOTED_INFRA_DIR/s3-$port.log"
venv="$NOTED_CACHE_DIR/moto-venv"

if [ ! -x "$venv/bin/moto_server" ]; then
  command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
  python3 -m venv "$venv" >>"$log" 2>&1 || {
    apt_install python3-venv
    python3 -m venv "$venv" >>"$log" 2>&1 || fail "cannot create a Python venv in $venv, see $log"
  }
  "$venv/bin/pip" install --quiet 'moto[server]>=5,<6' >>"$log" 2>&1 || fail "pip install moto[server] failed, see $log"
fi

ours_running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

if ours_running; then
  echo "s3: already running on port $port" >&2
else
  if port_open "$port"; then
    fail "port $port is taken by another process; set S3_PORT to a free port"
  fi
  mkdir -p "$base"
  setsid "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  echo "s3: starting on port $port (log $log)" >&2
fi

for _ in $(seq 1 100); do
  if port_open "$port"; then
    echo "export TEST_S3_ENDPOINT=http://127.0.0.1:$port"
    echo "export TEST_S3_ACCESS_KEY=minioadmin"
    echo "export TEST_S3_SECRET_KEY=minioadmin"
    exit 0
  fi
  sleep 0.1
done
fail "the S3 server on 127.0.0.1:$port did not answer within 10 s, see $log"
