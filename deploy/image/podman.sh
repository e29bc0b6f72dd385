# Shared by the image scripts: podman as this machine runs it. Sourced, not run.
# Debian's runc rather than crun, and no default ulimits (setting them fails here with
# "setrlimit: Operation not permitted"), through a containers.conf of our own under the cache
# rather than the machine's.
podman_setup() {
  local conf="$NOTED_CACHE_DIR/image/containers.conf"
  mkdir -p "$(dirname "$conf")"
  printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n' >"$conf"
  export CONTAINERS_CONF="$conf"
}

# An image's size in MB, as podman counts it (its layers, uncompressed).
podman_size() {
  echo "$(($(podman image inspect --format '{{.Size}}' "$1") / 1000000)) MB"
}
