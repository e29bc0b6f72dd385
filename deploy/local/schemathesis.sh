#!/usr/bin/env bash
# Installs Schemathesis (the OpenAPI fuzzer) into a virtualenv in the cache once, and prints
# the path of its `st` command. Idempotent: a second run only prints the path.
set -euo pipefail
version=4.32.5
cache="${NOTED_CACHE_DIR:-$HOME/.cache/noted}"
venv="$cache/schemathesis-$version"
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version" >&2
fi
echo "$venv/bin/st"
