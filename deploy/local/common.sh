# Shared by the local infrastructure scripts: directories, failure and package installs.
# Sourced, not run. Anything these scripts print on stdout is meant for `eval`.

NOTED_CACHE_DIR="${NOTED_CACHE_DIR:-$HOME/.cache/noted}"
NOTED_INFRA_DIR="${NOTED_INFRA_DIR:-/tmp/noted-infra}"
mkdir -p "$NOTED_CACHE_DIR" "$NOTED_INFRA_DIR"

fail() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n "$@"
  else
    return 1
  fi
}

# Installs Debian packages; `apt-get update` runs at most once per day on this machine.
apt_install() {
  local log="$NOTED_INFRA_DIR/apt.log"
  local stamp="$NOTED_CACHE_DIR/apt-updated"
  command -v apt-get >/dev/null 2>&1 || fail "apt-get not found: install $* yourself"
  if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
    as_root apt-get -o DPkg::Lock::Timeout=300 update >>"$log" 2>&1 ||
      fail "apt-get update failed (needs root or passwordless sudo), see $log"
    touch "$stamp"
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "$@" >>"$log" 2>&1 ||
    fail "apt-get install $* failed, see $log"
}

# Starts the built program (services/noted/dist/main.js) on port $1 in a fresh data directory
# under /tmp named after $2, with any further NAME=value arguments in its environment, stops it
# and removes its data directory when the script exits (a failure prints the log's tail first),
# and waits until it is ready. Sets `app` (its pid), `log` and `noted_data_dir`.
start_noted() {
  local port="$1" name="$2"
  shift 2
  noted_data_dir="$(mktemp -d "/tmp/noted-$name.XXXXXX")"
  log="$noted_data_dir/noted.log"
  env PORT="$port" NOTED_DATA_DIR="$noted_data_dir" "$@" node services/noted/dist/main.js >"$log" 2>&1 &
  app=$!
  trap 'kill $app 2>/dev/null || true; wait $app 2>/dev/null || true; rm -rf "$noted_data_dir"' EXIT
  for _ in $(seq 1 120); do
    curl -fsS "http://localhost:$port/readyz" >/dev/null 2>&1 && return 0
    kill -0 "$app" 2>/dev/null || { echo "noted exited:"; tail -50 "$log"; exit 1; }
    sleep 0.5
  done
  echo "noted never became ready:"
  tail -50 "$log"
  exit 1
}

# True when an HTTP GET of 127.0.0.1:$1$2 answers 200 (plain bash, no curl needed).
http_ok() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$2" "$1" >&3
    IFS= read -r -t 2 line <&3 || exit 1
    [[ "$line" == HTTP/1.?' 200'* ]]
  )
}

# Ends the process whose pid file is $1 (SIGTERM, then SIGKILL after 10 s) and removes the file;
# nothing when there is no file.
stop_pidfile() {
  local pid
  [ -f "$1" ] || return 0
  pid="$(cat "$1")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}

# A port nothing listens on, from the range $1 (LOW-HIGH), one the other local servers do not use.
free_port() {
  local port
  for port in $(shuf -i "$1" -n 50); do
    port_open "$port" || { echo "$port"; return; }
  done
  fail "found no free port in $1"
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
