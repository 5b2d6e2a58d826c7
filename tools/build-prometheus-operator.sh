#!/usr/bin/env bash
# Builds prometheus-operator's operator binary (cmd/operator) from its Go module into
# .tools/bin/prometheus-operator (or $PROMOP_TOOLS_DIR), with a .version stamp. Opt-in: only the
# side-by-side benchmark (bench/side-by-side.bench.ts) needs it, so tools/build.sh does not build it.
# A cold build takes several minutes on 2 cores; a binary with a matching stamp is not rebuilt.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${PROMOP_TOOLS_DIR:-$root/.tools/bin}"
mkdir -p "$out"

PROMETHEUS_OPERATOR_VERSION=v0.93.1
stamp="prometheus-operator $PROMETHEUS_OPERATOR_VERSION"
log() { printf '[tools] %s\n' "$*" >&2; }

if ! grep -qE "^[[:space:]]*github.com/prometheus-operator/prometheus-operator $PROMETHEUS_OPERATOR_VERSION$" "$here/prometheus-operator/go.mod"; then
  log "error: tools/prometheus-operator/go.mod does not pin prometheus-operator $PROMETHEUS_OPERATOR_VERSION"; exit 1
fi
if [[ -x "$out/prometheus-operator" && -f "$out/prometheus-operator.version" && "$(cat "$out/prometheus-operator.version")" == "$stamp" ]]; then
  log "prometheus-operator: $PROMETHEUS_OPERATOR_VERSION already built"; exit 0
fi

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod"
# The same version variables upstream's Makefile stamps (prometheus/common's version package); the
# default config-reloader image tag is derived from version.Version.
ldflags="-s -w -X github.com/prometheus/common/version.Version=${PROMETHEUS_OPERATOR_VERSION#v}"
ldflags+=" -X github.com/prometheus/common/version.Branch=HEAD -X github.com/prometheus/common/version.BuildUser=promop"
ldflags+=" -X github.com/prometheus/common/version.BuildDate=2026-11-01T00:00:00Z"

log "prometheus-operator: building $PROMETHEUS_OPERATOR_VERSION (a cold build takes minutes; later runs reuse Go's build cache)"
started=$SECONDS
(cd "$here/prometheus-operator" && go build -trimpath -ldflags "$ldflags" -o "$out/prometheus-operator.tmp" github.com/prometheus-operator/prometheus-operator/cmd/operator)
mv "$out/prometheus-operator.tmp" "$out/prometheus-operator"
echo "$stamp" > "$out/prometheus-operator.version"
log "prometheus-operator: built in $((SECONDS - started))s"
