#!/usr/bin/env bash
# The used-by story (e2e/src/used-by-story.test.ts) on a kind cluster, for machines with Docker. promop's own
# machines have no Docker engine, so this script has never run there: CI runs the same story on the real node
# that e2e/src/node/ starts (see README, "Running on kind").
#
# kind comes from PATH, or is run from its Go module (there is no npm package for it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. scripts/node-env.sh
pnpm install --frozen-lockfile
bash tools/build.sh # kubectl and helm, which the story drives the cluster with

kind_cmd() {
  if command -v kind >/dev/null 2>&1; then kind "$@"; else go run sigs.k8s.io/kind@v0.33.0 "$@"; fi
}
cluster="${PROMOP_KIND_CLUSTER:-promop-e2e}"
kubeconfig="$(mktemp -t promop-kind-XXXXXX.kubeconfig)"
version="$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' charts/promop/Chart.yaml)"
promop_image="localhost/promop/promop:$version"
example_image="localhost/promop/example-app:1.0"
receiver_image="localhost/promop/webhook-receiver:1.0"

docker build -t "$promop_image" .
docker build -t "$example_image" -f e2e/kind/example-app.Dockerfile tools/example-app
docker build -t "$receiver_image" -f e2e/kind/webhook-receiver.Dockerfile tools/webhook-receiver
kind_cmd create cluster --name "$cluster" --kubeconfig "$kubeconfig" --wait 120s
trap 'kind_cmd delete cluster --name "$cluster"; rm -f "$kubeconfig"' EXIT
kind_cmd load docker-image --name "$cluster" "$promop_image" "$example_image" "$receiver_image"
# The Prometheus images (quay.io/prometheus/prometheus at the story's two versions, pinned in tools/build.sh) and
# the Alertmanager image (quay.io/prometheus/alertmanager at promop's default version) are pulled by the kind node.
pin() { sed -n "s/^$1=//p" tools/build.sh; }

PROMOP_E2E_KUBECONFIG="$kubeconfig" PROMOP_E2E_IMAGE="$promop_image" \
  PROMOP_E2E_FIRST_VERSION="v$(pin PREVIOUS_PROMETHEUS_VERSION)" PROMOP_E2E_UPGRADED_VERSION="v$(pin PROMETHEUS_VERSION)" \
  pnpm jest e2e/src/used-by-story.test.ts
