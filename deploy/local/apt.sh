#!/usr/bin/env bash
# Installs Debian packages that are not installed yet; runs `apt-get update` at most once.
# Usage: deploy/local/apt.sh PACKAGE...
set -euo pipefail
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "apt.sh: need root to install ${missing[*]}" >&2
  exit 1
fi
echo "apt.sh: installing ${missing[*]}" >&2
DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
