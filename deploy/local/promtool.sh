#!/usr/bin/env bash
# Builds Prometheus's promtool once from its Go module into $NOTED_CACHE_DIR/bin (several
# minutes on 2 cores; the module and build caches live under $NOTED_CACHE_DIR/go, so later
# runs find the binary at once) and prints its path. Safe to run again.
# Usage: promtool="$(bash deploy/local/promtool.sh)"
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Prometheus publishes v0.<minor>.<patch> module versions alongside its v3 releases; pinned so
# every build checks with the same rules.
promtool_version="v0.316.0"
bin="$NOTED_CACHE_DIR/bin/promtool"
stamp="$NOTED_CACHE_DIR/bin/promtool.version"
build_log="$NOTED_INFRA_DIR/promtool-build.log"

if [ ! -x "$bin" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$promtool_version" ]; then
  go=/usr/local/go/bin/go
  [ -x "$go" ] || go="$(command -v go || true)"
  [ -n "$go" ] || fail "Go not found (looked for /usr/local/go/bin/go and go on PATH); promtool is built from its Go module"
  echo "promtool: building github.com/prometheus/prometheus/cmd/promtool@$promtool_version with $("$go" env GOVERSION), once (several minutes; log $build_log)" >&2
  mkdir -p "$NOTED_CACHE_DIR/bin" "$NOTED_CACHE_DIR/go"
  # GOTOOLCHAIN=local: build with this Go, never download another toolchain. CGO off: a
  # static binary that needs no C compiler.
  env GOPATH="$NOTED_CACHE_DIR/go" GOMODCACHE="$NOTED_CACHE_DIR/go/pkg/mod" \
    GOCACHE="$NOTED_CACHE_DIR/go/cache" GOBIN="$NOTED_CACHE_DIR/bin" \
    GOTOOLCHAIN=local CGO_ENABLED=0 \
    "$go" install -trimpath -ldflags="-s -w" \
    "github.com/prometheus/prometheus/cmd/promtool@$promtool_version" \
    >>"$build_log" 2>&1 ||
    fail "go install github.com/prometheus/prometheus/cmd/promtool@$promtool_version failed, see $build_log"
  [ -x "$bin" ] || fail "go install finished but $bin is missing, see $build_log"
  echo "$promtool_version" >"$stamp"
fi

# The build stamps no version into the binary (`promtool --version` prints none): say it here.
echo "promtool: github.com/prometheus/prometheus/cmd/promtool@$(cat "$stamp") at $bin" >&2
echo "$bin"
