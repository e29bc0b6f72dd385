#!/usr/bin/env bash
# A real single-node Kubernetes on this machine, from what the package registries serve: etcd
# (Debian), kube-apiserver, kube-controller-manager, kube-scheduler, the kubelet and kube-proxy
# (built from their Go modules, deploy/k8s/tools.sh), containerd 2 with Debian's runc, and a
# bridge network from Debian's containernetworking-plugins. Nothing is pulled: the sandbox ("pause") image is
# made here from Debian's busybox-static, and images are loaded with `cluster.sh load`.
#
# The control plane listens on 127.0.0.1 only; the node registers as 10.245.0.1, an address on
# the loopback interface, where port-forward and logs reach the kubelet; pods live on
# 10.244.0.0/24 behind the bridge noted-cni0.
# Every component and kubectl use one static token of system:masters: a cluster for tests, not
# for anyone else. The host mounts cgroup v1 (this kind of machine), which Kubernetes 1.37 runs
# on only when told (`failCgroupV1: false`). State lives in $NOTED_INFRA_DIR/cluster.
#
# Usage: deploy/k8s/cluster.sh up      prints the kubeconfig's path when the node is Ready
#        deploy/k8s/cluster.sh load IMAGE...   copies podman's images into the node's runtime
#        deploy/k8s/cluster.sh down
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../local/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/tools.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../image/podman.sh"
dir="$NOTED_INFRA_DIR/cluster"
NODE=noted-node
# The node's address, added to the loopback interface: the kubelet refuses a loopback address
# (127/8), and this one keeps the node's traffic on this machine all the same.
NODE_IP=10.245.0.1
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/16
PAUSE_IMAGE=localhost/noted-pause:1
COMPONENTS=(kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver containerd etcd)

down() {
  local name
  for name in "${COMPONENTS[@]}"; do stop_pidfile "$dir/$name.pid"; done
  # The pods' containers outlive containerd (their shims keep them); end them, then their mounts.
  pkill -f "containerd-shim-runc-v2 .*-address $dir/containerd.sock" 2>/dev/null || true
  if [ -d "$dir" ]; then
    grep -o " $dir/[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  fi
  ip link delete noted-cni0 2>/dev/null || true
  ip addr delete "$NODE_IP/32" dev lo 2>/dev/null || true
  # kube-proxy's iptables rules.
  local proxy="$tools_bin/kube-$KUBE_VERSION/kube-proxy"
  [ ! -x "$proxy" ] || "$proxy" --cleanup >/dev/null 2>&1 || true
}

# Starts `name` in the background, its output in $dir/name.log.
run() {
  local name="$1"
  shift
  setsid "$@" </dev/null >"$dir/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
}

alive() {
  kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null || fail "$1 exited, see $dir/$1.log (last lines: $(tail -3 "$dir/$1.log" | tr '\n' ' '))"
}

# A CA, the API server's serving certificate (loopback and the kubernetes Service's names and
# address) and the service accounts' signing key.
certificates() {
  local pki="$dir/pki"
  mkdir -p "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=noted-cluster-ca \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver \
    -keyout "$pki/apiserver.key" -out "$pki/apiserver.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,IP:10.96.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n' >"$pki/san.ext"
  openssl x509 -req -in "$pki/apiserver.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 2 -extfile "$pki/san.ext" -out "$pki/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
}

kubeconfig() {
  local port="$1" token="$2"
  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: noted
    cluster:
      server: https://127.0.0.1:$port
      certificate-authority: $dir/pki/ca.crt
users:
  - name: admin
    user:
      token: $token
contexts:
  - name: noted
    context:
      cluster: noted
      user: admin
current-context: noted
EOF
}

# The sandbox image every pod starts from: busybox sleeping as PID 1, made from Debian's
# busybox-static, imported straight into containerd.
pause_image() {
  local root="$dir/pause-root"
  rm -rf "$root" && mkdir -p "$root/bin"
  cp /bin/busybox "$root/bin/busybox"
  tar -C "$root" -cf "$dir/pause.tar" .
  podman import --quiet --change 'ENTRYPOINT ["/bin/busybox", "sleep", "2147483647"]' \
    "$dir/pause.tar" "$PAUSE_IMAGE" >/dev/null
  load "$PAUSE_IMAGE"
}

load() {
  local image
  for image in "$@"; do
    # A docker archive names its image (an OCI archive's name would be its tag alone).
    podman save --quiet --format docker-archive "$image" |
      "$CONTAINERD_BIN/ctr" --address "$dir/containerd.sock" -n k8s.io images import - >/dev/null 2>&1 ||
      fail "could not load $image into the node's containerd"
  done
}

containerd_config() {
  mkdir -p "$dir/cni" "$dir/containerd"
  cat >"$dir/cni/10-noted.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "noted",
  "plugins": [
    { "type": "bridge", "bridge": "noted-cni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }],
                "dataDir": "$dir/cni-ipam" } },
    { "type": "portmap", "capabilities": { "portMappings": true } },
    { "type": "loopback" }
  ]
}
EOF
  cat >"$dir/containerd.toml" <<EOF
version = 3
root = "$dir/containerd/root"
state = "$dir/containerd/state"
[grpc]
  address = "$dir/containerd.sock"
[plugins."io.containerd.cri.v1.images"]
  snapshotter = "overlayfs"
  [plugins."io.containerd.cri.v1.images".pinned_images]
    sandbox = "$PAUSE_IMAGE"
[plugins."io.containerd.cri.v1.runtime"]
  # The kubelet asks for -998 for sandboxes; this machine lets no process lower its OOM score.
  restrict_oom_score_adj = true
  [plugins."io.containerd.cri.v1.runtime".cni]
    bin_dirs = ["/usr/lib/cni"]
    conf_dir = "$dir/cni"
  [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
    [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]
      BinaryName = "${NOTED_RUNC:-$(command -v runc)}"
      SystemdCgroup = false
EOF
}

kubelet_config() {
  mkdir -p "$dir/kubelet"
  cat >"$dir/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: { enabled: true }
  webhook: { enabled: false }
authorization: { mode: AlwaysAllow }
address: $NODE_IP
containerRuntimeEndpoint: unix://$dir/containerd.sock
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
podCIDR: $POD_CIDR
resolvConf: /etc/resolv.conf
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1% }
imageGCHighThresholdPercent: 100
serializeImagePulls: false
EOF
}

up() {
  need_etcd
  need_kube_node
  need_containerd
  bash "$(dirname "${BASH_SOURCE[0]}")/../local/apt.sh" containernetworking-plugins busybox-static runc iptables
  podman_setup
  down
  rm -rf "$dir"
  mkdir -p "$dir/etcd"
  local etcd_port peer_port api_port token
  etcd_port="$(free_port 30000-32767)"
  peer_port="$(free_port 30000-32767)"
  api_port="$(free_port 30000-32767)"
  token="$(openssl rand -hex 24)"
  certificates
  echo "$token,admin,admin,system:masters" >"$dir/tokens.csv"
  kubeconfig "$api_port" "$token"

  start_etcd noted-cluster "$dir" "$etcd_port" "$peer_port"

  run kube-apiserver "$KUBE_APISERVER" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --tls-cert-file "$dir/pki/apiserver.crt" --tls-private-key-file "$dir/pki/apiserver.key" \
    --client-ca-file "$dir/pki/ca.crt" --token-auth-file "$dir/tokens.csv" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$dir/pki/sa.pub" --service-account-signing-key-file "$dir/pki/sa.key" \
    --authorization-mode RBAC --service-cluster-ip-range "$SERVICE_CIDR" --endpoint-reconciler-type none \
    --kubelet-preferred-address-types InternalIP
  for _ in $(seq 1 300); do
    "$KUBECTL" --kubeconfig "$dir/kubeconfig" get --raw /readyz >/dev/null 2>&1 && break
    alive kube-apiserver
    sleep 0.5
  done
  "$KUBECTL" --kubeconfig "$dir/kubeconfig" get --raw /readyz >/dev/null 2>&1 ||
    fail "kube-apiserver was not ready within 150 s, see $dir/kube-apiserver.log"

  run kube-controller-manager "$KUBE_CONTROLLER_MANAGER" --kubeconfig "$dir/kubeconfig" \
    --leader-elect=false --bind-address 127.0.0.1 --secure-port 0 \
    --service-account-private-key-file "$dir/pki/sa.key" --root-ca-file "$dir/pki/ca.crt" \
    --use-service-account-credentials=false --service-cluster-ip-range "$SERVICE_CIDR"
  run kube-scheduler "$KUBE_SCHEDULER" --kubeconfig "$dir/kubeconfig" --leader-elect=false \
    --bind-address 127.0.0.1 --secure-port 0

  containerd_config
  run containerd "$CONTAINERD_BIN/containerd" --config "$dir/containerd.toml"
  for _ in $(seq 1 100); do [ -S "$dir/containerd.sock" ] && break; alive containerd; sleep 0.2; done
  [ -S "$dir/containerd.sock" ] || fail "containerd did not start, see $dir/containerd.log"
  export PATH="$CONTAINERD_BIN:$PATH"
  pause_image

  kubelet_config
  ip addr add "$NODE_IP/32" dev lo
  run kubelet env PATH="$CONTAINERD_BIN:$PATH" "$KUBELET" --config "$dir/kubelet.yaml" \
    --kubeconfig "$dir/kubeconfig" --root-dir "$dir/kubelet" --cert-dir "$dir/kubelet/pki" \
    --hostname-override "$NODE" --node-ip "$NODE_IP"
  for _ in $(seq 1 240); do
    [ "$("$KUBECTL" --kubeconfig "$dir/kubeconfig" get node "$NODE" \
      -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ] && break
    alive kubelet
    sleep 0.5
  done
  [ "$("$KUBECTL" --kubeconfig "$dir/kubeconfig" get node "$NODE" \
    -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ] ||
    fail "the node did not become Ready within 120 s, see $dir/kubelet.log"

  # Services: ClusterIPs from pods and the node, NodePorts on the node's address only.
  run kube-proxy "$KUBE_PROXY" --kubeconfig "$dir/kubeconfig" --hostname-override "$NODE" \
    --proxy-mode iptables --cluster-cidr "$POD_CIDR" --nodeport-addresses "$NODE_IP/32" \
    --metrics-bind-address 127.0.0.1:10249 --healthz-bind-address 127.0.0.1:10256
  for _ in $(seq 1 100); do http_ok 10256 /healthz 2>/dev/null && break; alive kube-proxy; sleep 0.2; done
  http_ok 10256 /healthz 2>/dev/null || fail "kube-proxy did not become healthy, see $dir/kube-proxy.log"
  echo "$dir/kubeconfig"
}

case "${1:-}" in
  up) up ;;
  load)
    shift
    need_containerd
    podman_setup
    load "$@"
    ;;
  down) down ;;
  *) fail "usage: $0 up|load IMAGE...|down" ;;
esac
