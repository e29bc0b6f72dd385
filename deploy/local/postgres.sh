#!/usr/bin/env bash
# Runs a private PostgreSQL cluster on 127.0.0.1:${PGPORT:-54329} with trust auth and a
# `noted_test` database, for contract and integration tests. Safe to run again.
# Usage: eval "$(deploy/local/postgres.sh)"   # sets TEST_DATABASE_URL
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

port="${PGPORT:-54329}"
base="$NOTED_INFRA_DIR/postgres-$port"
data="$base/data"
log="$NOTED_INFRA_DIR/postgres-$port.log"
database="noted_test"

find_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

bindir="$(find_bindir || true)"
if [ -z "$bindir" ]; then
  apt_install postgresql
  bindir="$(find_bindir || true)"
  [ -n "$bindir" ] || fail "PostgreSQL server binaries not found under /usr/lib/postgresql after install"
fi

# The server refuses to run as root: use the `postgres` account when we are root.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$base" --shell /usr/sbin/nologin postgres
  run() { runuser -u postgres -- "$@"; }
else
  run() { "$@"; }
fi

mkdir -p "$base"
[ "$(id -u)" -eq 0 ] && chown postgres "$base"
touch "$log"
[ "$(id -u)" -eq 0 ] && chown postgres "$log"

if [ ! -f "$data/PG_VERSION" ]; then
  run "$bindir/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-locale >>"$log" 2>&1 ||
    fail "initdb failed, see $log"
fi

if run "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  echo "postgres: already running on port $port" >&2
else
  if port_open "$port"; then
    fail "port $port is taken by another process; set PGPORT to a free port"
  fi
  # A throwaway test cluster: durability settings off for speed.
  run "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$base -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    >>"$log" 2>&1 || fail "postgres did not start, see $log"
  echo "postgres: started on port $port (log $log)" >&2
fi

psql_cmd=("$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -tAq)
exists="$("${psql_cmd[@]}" -c "select 1 from pg_database where datname = '$database'" 2>>"$log")" ||
  fail "cannot connect to postgres on 127.0.0.1:$port, see $log"
if [ "$exists" != "1" ]; then
  "${psql_cmd[@]}" -c "create database $database" >>"$log" 2>&1 || fail "create database $database failed, see $log"
fi

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/$database"
