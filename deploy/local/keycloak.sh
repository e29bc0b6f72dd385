#!/usr/bin/env bash
# Runs Keycloak (the Quarkus distribution from Maven Central) in development mode on
# localhost:${KEYCLOAK_PORT:-18180}, its H2 database under the infra dir, with the realm
# deploy/keycloak/realm-noted.json imported. Safe to run again.
# Usage: eval "$(deploy/local/keycloak.sh)"
#   sets TEST_KEYCLOAK_URL and the master realm's admin account, TEST_KEYCLOAK_ADMIN_USER and
#   TEST_KEYCLOAK_ADMIN_PASSWORD (a throwaway instance on loopback; the password is generated once)
# Then, for the app: KEYCLOAK_URL=$TEST_KEYCLOAK_URL npm start
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

version="${KEYCLOAK_VERSION:-26.7.3}"
port="${KEYCLOAK_PORT:-18180}"
management_port=$((port + 1))
base="$NOTED_INFRA_DIR/keycloak-$port"
home="$base/keycloak-$version"
pidfile="$base/keycloak.pid"
log="$NOTED_INFRA_DIR/keycloak-$port.log"
m2="$NOTED_CACHE_DIR/m2"
zip="$m2/org/keycloak/keycloak-quarkus-dist/$version/keycloak-quarkus-dist-$version.zip"
realm_file="$repo/deploy/keycloak/realm-noted.json"
url="http://localhost:$port"

command -v java >/dev/null 2>&1 || apt_install openjdk-17-jre-headless
command -v mvn >/dev/null 2>&1 || apt_install maven
command -v unzip >/dev/null 2>&1 || apt_install unzip

# The zip (about 180 MB) is fetched once with Maven into a local repository under the cache.
if [ ! -f "$zip" ]; then
  echo "keycloak: downloading org.keycloak:keycloak-quarkus-dist:$version from Maven Central" >&2
  mvn -B -q -Dmaven.repo.local="$m2" dependency:get \
    -Dartifact="org.keycloak:keycloak-quarkus-dist:$version:zip" -Dtransitive=false \
    >>"$NOTED_INFRA_DIR/keycloak-download.log" 2>&1 ||
    fail "downloading Keycloak $version failed, see $NOTED_INFRA_DIR/keycloak-download.log"
  [ -f "$zip" ] || fail "Maven reported success but $zip is missing"
fi

ours_running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

# Keycloak writes its build, its data and its import dir under its home: one unpacked copy per
# instance, under the infra dir.
if [ ! -x "$home/bin/kc.sh" ]; then
  rm -rf "$base/unpacking"
  mkdir -p "$base/unpacking"
  unzip -q "$zip" -d "$base/unpacking" || fail "unpacking $zip failed"
  mv "$base/unpacking/keycloak-$version" "$home"
  rm -rf "$base/unpacking"
fi

password_file="$base/admin-password"
if [ ! -s "$password_file" ]; then
  od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$password_file"
  chmod 600 "$password_file"
fi
admin_password="$(cat "$password_file")"

# Keycloak imports a realm only when it does not exist yet: a changed realm file starts from a
# fresh database (at the next start, once the running one is stopped).
realm_sum="$(sha256sum "$realm_file" | cut -d' ' -f1)"
imported_sum="$(cat "$base/realm.sha256" 2>/dev/null || true)"

ready() {
  curl -fsS -o /dev/null --max-time 5 "$url/realms/noted/.well-known/openid-configuration" 2>/dev/null
}

if ours_running; then
  echo "keycloak: already running on port $port" >&2
  [ "$realm_sum" = "$imported_sum" ] ||
    echo "keycloak: $realm_file changed since it was imported; run deploy/local/stop.sh and this script again to import it" >&2
else
  for p in "$port" "$management_port"; do
    port_open "$p" && fail "port $p is taken by another process; set KEYCLOAK_PORT to a free port"
  done
  if [ "$realm_sum" != "$imported_sum" ]; then
    rm -rf "$home/data/h2"
  fi
  mkdir -p "$home/data/import"
  rm -f "$home/data/import/"*.json
  cp "$realm_file" "$home/data/import/"
  echo "$realm_sum" >"$base/realm.sha256"
  # C1 only: on two shared cores this halves the start (about 30 s instead of 60 s here), and a
  # development instance needs no peak throughput.
  JAVA_OPTS_APPEND="${JAVA_OPTS_APPEND:--XX:TieredStopAtLevel=1}" \
    KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD="$admin_password" \
    setsid "$home/bin/kc.sh" start-dev --import-realm \
    --http-host=127.0.0.1 --http-port="$port" --http-management-port="$management_port" \
    </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  echo "keycloak: starting $version on port $port (log $log)" >&2
fi

# About 40 s on two idle cores; the first start also builds Keycloak for its configuration.
for _ in $(seq 1 600); do
  if ready; then
    echo "export TEST_KEYCLOAK_URL=$url"
    echo "export TEST_KEYCLOAK_ADMIN_USER=admin"
    echo "export TEST_KEYCLOAK_ADMIN_PASSWORD=$admin_password"
    exit 0
  fi
  ours_running || { tail -40 "$log" >&2; fail "keycloak exited during start, see $log"; }
  sleep 0.5
done
fail "keycloak on $url did not serve the noted realm within 300 s, see $log"
