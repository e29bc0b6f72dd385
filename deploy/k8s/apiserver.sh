#!/usr/bin/env bash
# A real kube-apiserver on a real etcd, on loopback only, for `kubectl apply --dry-run=server`:
# no controllers, no nodes, nothing runs. State lives in $NOTED_INFRA_DIR/kube and starts empty.
# kubectl talks to it with $NOTED_INFRA_DIR/kube/kubeconfig (a static admin token).
# Usage: deploy/k8s/apiserver.sh start|stop
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../local/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
dir="$NOTED_INFRA_DIR/kube"

stop() {
  stop_pidfile "$dir/kube-apiserver.pid"
  stop_pidfile "$dir/etcd.pid"
}

start() {
  need_etcd
  need_kube
  stop
  rm -rf "$dir"
  mkdir -p "$dir/etcd" "$dir/certs"
  local etcd_port peer_port api_port token
  etcd_port="$(free_port 20000-29999)"
  peer_port="$(free_port 20000-29999)"
  api_port="$(free_port 20000-29999)"

  start_etcd noted-check "$dir" "$etcd_port" "$peer_port"

  openssl genrsa -out "$dir/sa.key" 2048 2>/dev/null
  openssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub" 2>/dev/null
  token="$(openssl rand -hex 24)"
  echo "$token,admin,admin,system:masters" >"$dir/tokens.csv"
  # The serving certificate is self-signed into --cert-dir; kubectl skips its verification.
  setsid "$KUBE_APISERVER" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" --cert-dir "$dir/certs" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$dir/sa.pub" --service-account-signing-key-file "$dir/sa.key" \
    --token-auth-file "$dir/tokens.csv" --authorization-mode RBAC \
    --service-cluster-ip-range 10.96.0.0/16 --endpoint-reconciler-type none \
    </dev/null >"$dir/kube-apiserver.log" 2>&1 &
  echo $! >"$dir/kube-apiserver.pid"

  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: check
    cluster:
      server: https://127.0.0.1:$api_port
      insecure-skip-tls-verify: true
users:
  - name: admin
    user:
      token: $token
contexts:
  - name: check
    context:
      cluster: check
      user: admin
current-context: check
EOF
  for _ in $(seq 1 300); do
    if "$KUBECTL" --kubeconfig "$dir/kubeconfig" get --raw /readyz >/dev/null 2>&1; then
      echo "$dir/kubeconfig"
      return
    fi
    kill -0 "$(cat "$dir/kube-apiserver.pid")" 2>/dev/null ||
      fail "kube-apiserver exited during startup, see $dir/kube-apiserver.log"
    sleep 0.5
  done
  fail "kube-apiserver was not ready within 150 s, see $dir/kube-apiserver.log"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) fail "usage: $0 start|stop" ;;
esac
