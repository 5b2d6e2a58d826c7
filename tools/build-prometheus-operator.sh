#!/usr/bin/env bash
# Builds prometheus-operator's two programs from its Go module into .tools/bin (or $PROMOP_TOOLS_DIR),
# each with a .version stamp: the operator (cmd/operator) and the config-reloader sidecar it puts in
# every Prometheus pod (cmd/prometheus-config-reloader). tools/build.sh runs this script: the takeover
# end-to-end test (e2e/src/takeover.test.ts) runs both on the real node, and the side-by-side
# benchmark (bench/side-by-side.bench.ts) runs the operator. A cold build takes several minutes on
# 2 cores; a binary with a matching stamp is not rebuilt, and Go's build cache makes a rebuild quick.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${PROMOP_TOOLS_DIR:-$root/.tools/bin}"
mkdir -p "$out"

PROMETHEUS_OPERATOR_VERSION=v0.93.1
stamp="prometheus-operator $PROMETHEUS_OPERATOR_VERSION"
log() { printf '[tools] %s\n' "$*" >&2; }
# shellcheck source=tools/tool-cache.sh
. "$here/tool-cache.sh"

if ! grep -qE "^[[:space:]]*github.com/prometheus-operator/prometheus-operator $PROMETHEUS_OPERATOR_VERSION$" "$here/prometheus-operator/go.mod"; then
  log "error: tools/prometheus-operator/go.mod does not pin prometheus-operator $PROMETHEUS_OPERATOR_VERSION"; exit 1
fi

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod"
# The same version variables upstream's Makefile stamps (prometheus/common's version package); the
# operator derives its default config-reloader image tag from version.Version.
ldflags="-s -w -X github.com/prometheus/common/version.Version=${PROMETHEUS_OPERATOR_VERSION#v}"
ldflags+=" -X github.com/prometheus/common/version.Branch=HEAD -X github.com/prometheus/common/version.BuildUser=promop"
ldflags+=" -X github.com/prometheus/common/version.BuildDate=2026-11-01T00:00:00Z"

for pair in prometheus-operator=cmd/operator prometheus-config-reloader=cmd/prometheus-config-reloader; do
  bin="${pair%%=*}"; pkg="github.com/prometheus-operator/prometheus-operator/${pair#*=}"
  if [[ -x "$out/$bin" && -f "$out/$bin.version" && "$(cat "$out/$bin.version")" == "$stamp" ]]; then
    log "$bin: $PROMETHEUS_OPERATOR_VERSION already built"; continue
  fi
  if [[ -n "${PROMOP_TOOLS_DIR:-}" && -x "$out/$bin" && ! -f "$out/$bin.version" ]]; then
    log "$bin: using the binary you provided in \$PROMOP_TOOLS_DIR"; continue
  fi
  key="$(tool_cache_key "$here/prometheus-operator" "$bin" "$pkg" "-trimpath $ldflags" "$here/build-prometheus-operator.sh")"
  if tool_cache_restore "$key" "$bin" "$out/$bin"; then
    echo "$stamp" > "$out/$bin.version"
    log "$bin: $PROMETHEUS_OPERATOR_VERSION copied from the machine's tool cache"
    continue
  fi
  log "$bin: building $PROMETHEUS_OPERATOR_VERSION (a cold build takes minutes; later runs reuse Go's build cache)"
  started=$SECONDS
  (cd "$here/prometheus-operator" && go build -trimpath -ldflags "$ldflags" -o "$out/$bin.tmp" "$pkg")
  mv "$out/$bin.tmp" "$out/$bin"
  echo "$stamp" > "$out/$bin.version"
  tool_cache_save "$key" "$bin" "$out/$bin"
  log "$bin: built in $((SECONDS - started))s"
done
