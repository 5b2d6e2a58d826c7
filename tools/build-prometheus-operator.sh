#!/usr/bin/env bash
# Builds prometheus-operator's two programs from its Go module into .tools/bin (or $PROMOP_TOOLS_DIR),
# each with a .version stamp: the operator (cmd/operator) and the config-reloader sidecar it puts in
# every Prometheus pod (cmd/prometheus-config-reloader). tools/build.sh runs this script: the takeover
# end-to-end test (e2e/src/takeover.test.ts) runs both on the real node, and the side-by-side
# benchmark (bench/side-by-side.bench.ts) runs the operator. A cold build takes several minutes on
# 2 cores; a binary with a matching stamp is not rebuilt (tools/build-lib.sh), and Go's build cache makes a
# rebuild quick.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${PROMOP_TOOLS_DIR:-$root/.tools/bin}"
mkdir -p "$out"

PROMETHEUS_OPERATOR_VERSION=v0.93.1

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod"
common_flags=(-trimpath)
build_script="$here/build-prometheus-operator.sh"
# shellcheck source=tools/build-lib.sh
. "$here/build-lib.sh"

if ! grep -qE "^[[:space:]]*github.com/prometheus-operator/prometheus-operator $PROMETHEUS_OPERATOR_VERSION$" "$here/prometheus-operator/go.mod"; then
  log "error: tools/prometheus-operator/go.mod does not pin prometheus-operator $PROMETHEUS_OPERATOR_VERSION"; exit 1
fi

# The same version variables upstream's Makefile stamps (prometheus/common's version package); the
# operator derives its default config-reloader image tag from version.Version.
ldflags="-X github.com/prometheus/common/version.Version=${PROMETHEUS_OPERATOR_VERSION#v}"
ldflags+=" -X github.com/prometheus/common/version.Branch=HEAD -X github.com/prometheus/common/version.BuildUser=promop"
ldflags+=" -X github.com/prometheus/common/version.BuildDate=2026-11-01T00:00:00Z"

build prometheus-operator "prometheus-operator $PROMETHEUS_OPERATOR_VERSION" "$ldflags" \
  "prometheus-operator=github.com/prometheus-operator/prometheus-operator/cmd/operator" \
  "prometheus-config-reloader=github.com/prometheus-operator/prometheus-operator/cmd/prometheus-config-reloader"
