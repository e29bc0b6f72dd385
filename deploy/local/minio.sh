#!/usr/bin/env bash
# Runs a real MinIO server on 127.0.0.1:${MINIO_PORT:-9100} (console on the next port) for
# the object store contract suite. MinIO is not packaged for Debian and publishes no Go module
# releases, so the server is built once from source with the machine's Go into
# $NOTED_CACHE_DIR/bin; the module and build caches live under $NOTED_CACHE_DIR/go, so later
# runs start at once. Safe to run again.
# Usage: eval "$(deploy/local/minio.sh)"   # sets TEST_S3_ENDPOINT, TEST_S3_ACCESS_KEY, TEST_S3_SECRET_KEY
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The module's tags are RELEASE.<date> names, which are not semver: `go list -m -versions`
# lists none, and the Go module proxy this machine uses refuses RELEASE.* and branch queries
# (403) and serves exactly one version, `@latest`: the pseudo-version of the 2026-02-12
# master commit 7aac2a2c5b7c. Its go.mod asks for go 1.24.0 and has no replace directives,
# so `go install module@version` accepts it. Pinned so every build is the same server.
minio_version="v0.0.0-20260212201848-7aac2a2c5b7c"
min_go_minor=24

port="${MINIO_PORT:-9100}"
console_port=$((port + 1))
base="$NOTED_INFRA_DIR/minio-$port"
pidfile="$base/minio.pid"
log="$NOTED_INFRA_DIR/minio-$port.log"
bin="$NOTED_CACHE_DIR/bin/minio"
stamp="$NOTED_CACHE_DIR/bin/minio.version"
build_log="$NOTED_INFRA_DIR/minio-build.log"

if [ ! -x "$bin" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$minio_version" ]; then
  go=/usr/local/go/bin/go
  [ -x "$go" ] || go="$(command -v go || true)"
  [ -n "$go" ] || fail "Go not found (looked for /usr/local/go/bin/go and go on PATH); MinIO is built from source and needs go >= 1.$min_go_minor"
  go_version="$("$go" env GOVERSION 2>/dev/null || true)"
  [[ "$go_version" =~ ^go1\.([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge "$min_go_minor" ] ||
    fail "MinIO needs go >= 1.$min_go_minor to build, $go reports '${go_version:-nothing}'"
  echo "minio: building github.com/minio/minio@$minio_version with $go_version, once (several minutes; log $build_log)" >&2
  mkdir -p "$NOTED_CACHE_DIR/bin" "$NOTED_CACHE_DIR/go"
  # CGO off: a static binary that needs no C compiler, as MinIO's own release builds.
  # GOTOOLCHAIN=local: build with this Go, never download another toolchain.
  env GOPATH="$NOTED_CACHE_DIR/go" GOMODCACHE="$NOTED_CACHE_DIR/go/pkg/mod" \
    GOCACHE="$NOTED_CACHE_DIR/go/cache" GOBIN="$NOTED_CACHE_DIR/bin" \
    GOTOOLCHAIN=local CGO_ENABLED=0 \
    "$go" install -trimpath -ldflags="-s -w" "github.com/minio/minio@$minio_version" \
    >>"$build_log" 2>&1 || fail "go install github.com/minio/minio@$minio_version failed, see $build_log"
  [ -x "$bin" ] || fail "go install finished but $bin is missing, see $build_log"
  echo "$minio_version" >"$stamp"
fi

# True when MinIO's liveness endpoint answers 200.
live() {
  http_ok "$port" /minio/health/live
}

ours_running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

if ours_running; then
  echo "minio: already running on port $port" >&2
else
  for p in "$port" "$console_port"; do
    if port_open "$p"; then
      fail "port $p is taken by another process; set MINIO_PORT to a free port (MinIO uses it and the next one)"
    fi
  done
  mkdir -p "$base/data"
  MINIO_ROOT_USER=minioadmin MINIO_ROOT_PASSWORD=minioadmin MINIO_UPDATE=off \
    setsid "$bin" server "$base/data" --address "127.0.0.1:$port" \
    --console-address "127.0.0.1:$console_port" </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  echo "minio: starting on port $port, console on $console_port (log $log)" >&2
fi

for _ in $(seq 1 300); do
  if live 2>/dev/null; then
    echo "export TEST_S3_ENDPOINT=http://127.0.0.1:$port"
    echo "export TEST_S3_ACCESS_KEY=minioadmin"
    echo "export TEST_S3_SECRET_KEY=minioadmin"
    exit 0
  fi
  ours_running || fail "minio exited during startup, see $log"
  sleep 0.1
done
fail "minio on 127.0.0.1:$port did not answer /minio/health/live within 30 s, see $log"
