#!/usr/bin/env bash
# The Helm chart on a real single-node Kubernetes (deploy/k8s/cluster.sh) with the image built
# here (deploy/image/build.sh): `helm install` of `topology: all`, the pod Ready through its
# probes, a user signed in through a port-forward who creates a note, finds it and hears its
# edit on the WebSocket, and the running container checked: uid 10001, read-only root, no
# capabilities, the Secrets it mounts; then `helm upgrade` to a second tag and `helm rollback`,
# Ready each time with the note kept. Prints a table of what it checked and how long each step
# took. Not checked yet: the split topology, and an upgrade under load.
#
# Usage: deploy/k8s/e2e.sh [IMAGE]   (IMAGE: a podman image; built by deploy/image/build.sh
#        when not given). NOTED_E2E_KEEP=1 leaves the cluster up and prints KUBECONFIG= and
#        NOTED_E2E_URL= for a person to look around.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source deploy/local/common.sh
source deploy/k8s/tools.sh
need_helm
need_kube

image="${1:-$(bash deploy/image/build.sh | tail -1)}"
port="${NOTED_E2E_PORT:-18490}"
namespace=noted
dir="$NOTED_INFRA_DIR/cluster"
rows=()
started=$SECONDS
step_started=$SECONDS
# One row of the table: what was checked, what was seen, the step's seconds.
row() {
  rows+=("$(printf '%-48s %4s s   %s' "$1" "$((SECONDS - step_started))" "$2")")
  step_started=$SECONDS
}
finish() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -f "$dir/kubeconfig" ]; then
    "$KUBECTL" --kubeconfig "$dir/kubeconfig" -n "$namespace" get pods,events 2>/dev/null | tail -30 || true
  fi
  if [ "${NOTED_E2E_KEEP:-0}" = 1 ] && [ "$status" -eq 0 ]; then
    # The port-forward stays too, for a browser.
    echo "KUBECONFIG=$dir/kubeconfig"
    echo "NOTED_E2E_URL=http://localhost:$port"
    echo "(kill $forward ends the port-forward, deploy/k8s/cluster.sh down the cluster)"
  else
    [ -n "${forward:-}" ] && kill "$forward" 2>/dev/null
    bash deploy/k8s/cluster.sh down
  fi
}
trap finish EXIT

kubeconfig="$(bash deploy/k8s/cluster.sh up)"
export KUBECONFIG="$kubeconfig"
k() { "$KUBECTL" -n "$namespace" "$@"; }
row "cluster up (etcd, control plane, kubelet, proxy)" "node $("$KUBECTL" get nodes -o name | cut -d/ -f2) Ready, $("$KUBECTL" version -o json | node -pe 'JSON.parse(require("fs").readFileSync(0)).serverVersion.gitVersion')"

bash deploy/k8s/cluster.sh load "$image"
row "image loaded into containerd (nothing pulled)" "$image"

# The pod's volume: no provisioner runs here, so a PersistentVolume of a directory that the
# storage's admin gives to uid 10001 (fsGroup does not reach a hostPath).
volume="$dir/volumes/data"
mkdir -p "$volume" && chown 10001:10001 "$volume" && chmod 0700 "$volume"
"$KUBECTL" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: PersistentVolume
metadata: { name: noted-data }
spec:
  capacity: { storage: 5Gi }
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  hostPath: { path: $volume, type: Directory }
EOF
"$HELM" install noted helm/noted -n "$namespace" --create-namespace --wait --timeout 5m \
  --set image.repository="${image%:*}" --set-string image.tag="${image##*:}" \
  --set publicUrl="http://localhost:$port" >"$dir/helm-install.log" 2>&1 ||
  { cat "$dir/helm-install.log"; fail "helm install did not finish"; }
running_pod() {
  k get pods -l app.kubernetes.io/instance=noted --field-selector status.phase=Running \
    -o jsonpath='{.items[0].metadata.name}'
}
pod="$(running_pod)"
probes="$(k get pod "$pod" -o jsonpath='{range .spec.containers[0]}{.startupProbe.httpGet.path} {.readinessProbe.httpGet.path} {.livenessProbe.httpGet.path}{.livenessProbe.grpc.port}{end}')"
row "helm install (topology: all), pod Ready" "$pod; probes startup, readiness, liveness: $probes"

# A port-forward to the Service's pod, made again when the pod is replaced (it follows one pod).
forward_port() {
  [ -n "${forward:-}" ] && kill "$forward" 2>/dev/null
  k port-forward "svc/noted-all" "$port:8080" >"$dir/port-forward.log" 2>&1 &
  forward=$!
  for _ in $(seq 1 50); do http_ok "$port" /readyz 2>/dev/null && return; sleep 0.2; done
  fail "no answer through the port-forward, see $dir/port-forward.log"
}
smoke() { NOTED_URL="http://localhost:$port" node --conditions=@noted/source --import tsx deploy/image/smoke.ts "$@"; }
forward_port
note="$(smoke | tail -1)"
row "through a port-forward" "signed in, a note created, found by words and by meaning, its edit heard on the WebSocket"

# The running container, seen from inside it and from its spec.
in_pod() { k exec "$pod" -- sh -c "$1"; }
uid="$(in_pod 'id -u')"
root_mount="$(in_pod "awk '\$2 == \"/\" {split(\$4, o, \",\"); print o[1]}' /proc/mounts")"
caps="$(in_pod "awk '/^CapEff/ {print \$2}' /proc/1/status")"
[ "$uid" = 10001 ] || fail "the container runs as uid $uid"
[ "$root_mount" = ro ] || fail "the root filesystem is mounted $root_mount"
[ "$caps" = 0000000000000000 ] || fail "the container keeps capabilities $caps"
secrets="$(k get pod "$pod" -o json | node -e '
  const pod = JSON.parse(require("fs").readFileSync(0));
  const names = new Set();
  for (const v of pod.spec.volumes ?? []) if (v.secret) names.add(v.secret.secretName);
  for (const c of pod.spec.containers)
    for (const e of [...(c.env ?? []), ...(c.envFrom ?? [])])
      if (e.valueFrom?.secretKeyRef) names.add(`${e.valueFrom.secretKeyRef.name}:${e.valueFrom.secretKeyRef.key}`);
      else if (e.secretRef) names.add(`${e.secretRef.name} (all keys)`);
  console.log([...names].join(", ") || "none");')"
row "the running container" "uid $uid, root $root_mount, CapEff $caps; Secrets: $secrets"

# An upgrade to a second tag of the image, then a rollback: Ready again each time, the note
# there. The all-in-one's Deployment is Recreate (one pod owns its PGlite volume), so requests
# fail while the new pod starts; the split topology's rolling update is what avoids that.
upgrade_to() {
  "$HELM" "$@" -n "$namespace" --wait --timeout 5m >"$dir/helm.log" 2>&1 ||
    { cat "$dir/helm.log"; fail "helm $1 did not finish"; }
  k rollout status deploy/noted-all --timeout 2m >/dev/null
  pod="$(running_pod)"
  forward_port
  smoke --kept "$note" >/dev/null
}
second="${image}-upgrade"
podman tag "$image" "$second"
bash deploy/k8s/cluster.sh load "$second"
# Requests through the Service (kube-proxy) all along the upgrade, ten a second: how many fail.
service_ip="$(k get svc noted-all -o jsonpath='{.spec.clusterIP}')"
: >"$dir/upgrade-requests.log"
(
  while :; do
    curl -s -o /dev/null -m 1 -w '%{http_code}\n' "http://$service_ip:8080/healthz" >>"$dir/upgrade-requests.log" || true
    sleep 0.1
  done
) &
requests=$!
upgrade_to upgrade noted helm/noted --reuse-values --set-string image.tag="${second##*:}"
kill "$requests"
sent="$(wc -l <"$dir/upgrade-requests.log")"
failed="$(grep -cv '^200$' "$dir/upgrade-requests.log" || true)"
running="$(k get pod "$pod" -o jsonpath='{.spec.containers[0].image}')"
[ "$running" = "$second" ] || fail "after the upgrade the pod runs $running"
row "helm upgrade to a second tag" "revision 2: $pod runs ${second##*/}, Ready, the note there; through the Service $failed of $sent requests failed (Recreate)"
upgrade_to rollback noted 1
running="$(k get pod "$pod" -o jsonpath='{.spec.containers[0].image}')"
[ "$running" = "$image" ] || fail "after the rollback the pod runs $running"
row "helm rollback" "revision 3: $pod runs ${image##*/} again, Ready, the note there"
podman rmi "$second" >/dev/null

echo
printf '%-48s %6s   %s\n' "checked" "time" "seen"
printf '%s\n' "${rows[@]}"
echo "image $image ($(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%d MB", $1 / 1000000}')); $((SECONDS - started)) s in all"
