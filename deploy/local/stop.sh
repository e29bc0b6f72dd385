#!/usr/bin/env bash
# Stops every server that postgres.sh, nats.sh, minio.sh, keycloak.sh and stripe-mock.sh started;
# data stays under the infra dir.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

shopt -s nullglob
for data in "$NOTED_INFRA_DIR"/postgres-*/data; do
  [ -f "$data/postmaster.pid" ] || continue
  base="$(dirname "$data")"
  log="$base.log"
  pg_ctl="$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V -r | head -n 1)"
  [ -n "$pg_ctl" ] || fail "pg_ctl not found"
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$pg_ctl" -D "$data" -m fast -w stop >>"$log" 2>&1 || fail "postgres ($data) did not stop, see $log"
  else
    "$pg_ctl" -D "$data" -m fast -w stop >>"$log" 2>&1 || fail "postgres ($data) did not stop, see $log"
  fi
  echo "postgres: stopped ${base##*/}" >&2
done

# Keycloak takes a few seconds to stop cleanly (kc.sh hands the signal to its JVM).
for pidfile in "$NOTED_INFRA_DIR"/nats-*/nats.pid \
  "$NOTED_INFRA_DIR"/minio-*/minio.pid \
  "$NOTED_INFRA_DIR"/keycloak-*/keycloak.pid \
  "$NOTED_INFRA_DIR"/stripe-mock*/stripe-mock.pid; do
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 300); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && fail "$(basename "$(dirname "$pidfile")") (pid $pid) did not stop"
    echo "stopped $(basename "$(dirname "$pidfile")")" >&2
  fi
  rm -f "$pidfile"
done
