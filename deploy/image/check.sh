#!/usr/bin/env bash
# Runs Noted's runtime image as the Helm chart runs it and checks it works: `--target=all` as
# uid 10001, a read-only root filesystem, every capability dropped, no new privileges, and only
# /data (a volume, which takes the image's ownership of it) and /tmp (a tmpfs) writable. Every
# package the program imports must be in it; it must answer /readyz, run no process as root,
# and let a user sign in with the development provider, create a note, find it by search and
# hear its edit on the WebSocket (deploy/image/smoke.ts).
# Usage: deploy/image/check.sh IMAGE   (NOTED_IMAGE_PORT: the port on 127.0.0.1, 18480)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source deploy/local/common.sh
source deploy/image/podman.sh
podman_setup

image="${1:?usage: check.sh IMAGE}"
port="${NOTED_IMAGE_PORT:-18480}"
name="noted-check-$$"
trap 'podman logs "$name" >"$NOTED_INFRA_DIR/$name.log" 2>&1 || true; podman rm -f "$name" >/dev/null 2>&1 || true; podman volume rm -f "$name-data" >/dev/null 2>&1 || true' EXIT

# Every package the program imports is in the image (it installs production dependencies only).
podman run --rm --entrypoint node --volume "$PWD/deploy/image:/check:ro" "$image" \
  --experimental-import-meta-resolve --no-warnings /check/imports.ts

podman run --detach --name "$name" --user 10001:10001 --read-only --cap-drop=all \
  --security-opt no-new-privileges --tmpfs /tmp:rw,size=256m,mode=1777 \
  --mount type=volume,source="$name-data",target=/data \
  --publish "127.0.0.1:$port:8080" --env PUBLIC_URL="http://localhost:$port" \
  "$image" --target=all >/dev/null

for _ in $(seq 1 120); do
  http_ok "$port" /readyz 2>/dev/null && break
  [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] ||
    { podman logs "$name" 2>&1 | tail -40; fail "the container exited"; }
  sleep 0.5
done
http_ok "$port" /readyz 2>/dev/null || { podman logs "$name" 2>&1 | tail -40; fail "never ready"; }

# Everything in the container runs as 10001 (tini included), with no capabilities left.
users="$(podman top "$name" user huser | awk 'NR > 1 {print $1}' | sort -u | tr '\n' ' ')"
[ "$users" = "10001 " ] || [ "$users" = "noted " ] || fail "processes run as: $users"
caps="$(podman inspect --format '{{.EffectiveCaps}}' "$name")"
[ "$caps" = "[]" ] || fail "capabilities left: $caps"
[ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$name")" = true ] ||
  fail "the root filesystem is writable"

NOTED_URL="http://localhost:$port" node --conditions=@noted/source --import tsx deploy/image/smoke.ts | sed -n 1p
echo "image $image: ready as uid 10001 on a read-only root with no capabilities; signed in, created, searched and heard a note"
