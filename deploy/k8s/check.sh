#!/usr/bin/env bash
# Checks the image, the Helm chart helm/noted and skaffold.yaml with the real tools:
#   1. hadolint on deploy/Dockerfile
#   2. helm lint --strict with the default values and every values file of deploy/k8s/values
#   3. helm template | kubeconform -strict against Kubernetes' own JSON schemas, offline
#   4. assertions over the rendered manifests and skaffold.yaml's structure (vitest)
#   5. promtool check rules over the Grafana dashboard's queries, when PROMTOOL is set
#   6. helm template | kubectl apply --dry-run=server against a real kube-apiserver and etcd,
#      in a namespace that warns on anything Pod Security's "restricted" profile refuses
# Tools are installed once into $NOTED_CACHE_DIR (the first run builds kube-apiserver and kubectl,
# about 8 minutes on 2 cores); later runs take well under a minute or two.
# Usage: deploy/k8s/check.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source deploy/local/common.sh
source deploy/k8s/tools.sh

started=$(date +%s)
check() { printf -- '--- %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }
chart=helm/noted
# Each values set is rendered and checked; none needs a cluster.
value_sets=(default external full dev prod)
values_args() {
  case "$1" in
    default) ;;
    # skaffold run -p prod fills these from the environment (skaffold.yaml's setValueTemplates).
    prod) printf '%s\n' --values deploy/k8s/values/prod.yaml --set publicUrl=https://notes.example.com \
      --set keycloak.url=https://id.example.com --set nats.url=nats://nats.example.com:4222 \
      --set objectStore.endpoint=https://s3.example.com ;;
    *) printf '%s\n' --values "deploy/k8s/values/$1.yaml" ;;
  esac
}
render() {
  local args
  mapfile -t args < <(values_args "$1")
  "$HELM" template noted "$chart" --namespace noted "${args[@]}"
}

check "tools (installed once into $NOTED_CACHE_DIR)"
need_helm
need_kubeconform
need_schemas
need_hadolint
echo "helm $("$HELM" version --short), kubeconform $("$KUBECONFORM" -v), hadolint $("$HADOLINT" --version | head -1), schemas of kubernetes-validate $KUBERNETES_VALIDATE_VERSION"

check "hadolint: deploy/Dockerfile"
"$HADOLINT" --failure-threshold info deploy/Dockerfile
echo "deploy/Dockerfile: no findings (stages: $(grep -oiE '^FROM .* AS [a-z-]+' deploy/Dockerfile | awk '{print $NF}' | paste -sd, -))"

check "helm lint --strict, default values and each values file"
for set in "${value_sets[@]}"; do
  mapfile -t args < <(values_args "$set")
  "$HELM" lint --strict "$chart" "${args[@]}" >"$NOTED_INFRA_DIR/helm-lint.log" 2>&1 ||
    { cat "$NOTED_INFRA_DIR/helm-lint.log"; fail "helm lint --strict failed with the $set values"; }
  echo "$set: $(grep -E 'chart\(s\) linted' "$NOTED_INFRA_DIR/helm-lint.log")"
done

check "kubeconform -strict: every rendered manifest against the Kubernetes ${KUBE_VERSION%.*} schemas (CRDs: chart tests)"
rendered=()
for set in "${value_sets[@]}"; do
  render "$set" >"$NOTED_INFRA_DIR/rendered-$set.yaml"
  rendered+=("$NOTED_INFRA_DIR/rendered-$set.yaml")
done
# One run, so each kind's schema is compiled once for every values set.
"$KUBECONFORM" -strict -summary -schema-location "$SCHEMA_DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
  -skip ServiceMonitor,HTTPRoute "${rendered[@]}"
for set in "${value_sets[@]}"; do
  printf '%s: %s\n' "$set" "$(grep -E '^kind: ' "$NOTED_INFRA_DIR/rendered-$set.yaml" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $3; sep=", "}')"
done

check "the rendered manifests and skaffold.yaml (vitest)"
HELM="$HELM" npx vitest run --config deploy/k8s/vitest.config.ts

check "the Grafana dashboard's queries parse as PromQL (promtool check rules)"
if [ -n "${PROMTOOL:-}" ]; then
  python3 deploy/k8s/dashboard-rules.py helm/noted/files/dashboards/noted.json >"$NOTED_INFRA_DIR/dashboard-rules.yaml"
  "$PROMTOOL" check rules "$NOTED_INFRA_DIR/dashboard-rules.yaml"
else
  echo "skipped: PROMTOOL is not set (deploy/local/promtool.sh builds it)"
fi

check "kubectl apply --dry-run=server against kube-apiserver $KUBE_VERSION and etcd"
need_etcd
need_kube
bash deploy/k8s/apiserver.sh start >/dev/null
trap 'bash deploy/k8s/apiserver.sh stop >/dev/null 2>&1 || true' EXIT
kubectl() { "$KUBECTL" --kubeconfig "$NOTED_INFRA_DIR/kube/kubeconfig" "$@"; }
echo "$(kubectl version 2>/dev/null | tail -1), etcd $("$ETCD" --version | head -1 | awk '{print $3}')"
kubectl create namespace noted --dry-run=client -o yaml |
  kubectl label --local -f - -o yaml pod-security.kubernetes.io/enforce=restricted \
    pod-security.kubernetes.io/warn=restricted |
  kubectl apply -f - >/dev/null
kubectl apply -f deploy/k8s/crds.yaml >/dev/null
kubectl wait --for=condition=Established crd --all --timeout=60s >/dev/null
for set in "${value_sets[@]}"; do
  kubectl apply --dry-run=server -n noted -f "$NOTED_INFRA_DIR/rendered-$set.yaml" \
    >"$NOTED_INFRA_DIR/dry-run-$set.log" 2>&1 || { cat "$NOTED_INFRA_DIR/dry-run-$set.log"; fail "the $set values: the API server refused a manifest"; }
  if grep -i 'warning' "$NOTED_INFRA_DIR/dry-run-$set.log"; then
    fail "the $set values: the API server warned (Pod Security restricted, deprecations)"
  fi
  echo "$set: $(grep -c 'server dry run' "$NOTED_INFRA_DIR/dry-run-$set.log") objects accepted, no warnings ($(sed -E 's/ .*//; s#/.*##' "$NOTED_INFRA_DIR/dry-run-$set.log" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}'))"
done

check "helm install and upgrade on the same API server: generated secrets survive an upgrade (lookup)"
# Nothing runs there (no controllers, no nodes), so hooks are left out: the migration Job would
# never finish.
export KUBECONFIG="$NOTED_INFRA_DIR/kube/kubeconfig"
kubectl create namespace noted-upgrade >/dev/null
secret_of() {
  kubectl -n noted-upgrade get secret noted -o "jsonpath={.data.$1}" | base64 -d
}
mapfile -t args < <(values_args full)
args+=(--set internalSecret.value=)
"$HELM" install noted "$chart" --namespace noted-upgrade --no-hooks "${args[@]}" >"$NOTED_INFRA_DIR/helm-install.log" ||
  { cat "$NOTED_INFRA_DIR/helm-install.log"; fail "helm install failed"; }
internal="$(secret_of NOTED_INTERNAL_SECRET)"
postgres="$(secret_of POSTGRES_PASSWORD)"
[ "${#internal}" -eq 48 ] || fail "the generated internal secret is not 48 characters"
"$HELM" upgrade noted "$chart" --namespace noted-upgrade --no-hooks "${args[@]}" --set logLevel=debug >/dev/null
[ "$(secret_of NOTED_INTERNAL_SECRET)" = "$internal" ] || fail "helm upgrade changed the generated internal secret"
[ "$(secret_of POSTGRES_PASSWORD)" = "$postgres" ] || fail "helm upgrade changed the generated Postgres password"
echo "installed $(kubectl -n noted-upgrade get deployments -o name | wc -l) Deployments; after an upgrade the generated Postgres password and internal secret are unchanged"
sed -n '/^NOTES:/,$p' "$NOTED_INFRA_DIR/helm-install.log" | head -12

check "done"
