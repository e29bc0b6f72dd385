#!/usr/bin/env bash
# Installs the given Debian packages unless they are installed already.
# Usage: deploy/local/apt.sh PACKAGE...
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
