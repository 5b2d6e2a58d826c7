#!/usr/bin/env bash
# Builds the real programs promop's tests talk to (etcd, kube-apiserver, kube-controller-manager,
# kubectl, kubelet, kube-proxy, kube-scheduler, containerd, coredns, prometheus, promtool (also the previous
# release's and the last 2.x release's), alertmanager, amtool, thanos, helm, and
# prometheus-operator with its config-reloader) from Go modules into .tools/bin, or into
# $PROMOP_TOOLS_DIR. runc, the CNI plugins and iptables come from Debian packages
# (scripts/system-deps.sh): runc needs cgo and libseccomp.
#
# Release downloads are not reachable from our machines; the Go module proxy is. Each tool has a
# small wrapper module beside this script (tools/<tool>/go.mod) that pins its version, because
# the upstream modules carry replace/exclude directives that make `go install pkg@version` fail.
#
# A tool is skipped when its binary exists with a stamp file matching the pinned version, when
# $KUBEBUILDER_ASSETS already holds it, or when $PROMOP_TOOLS_DIR holds it without a stamp
# (a binary the user brought).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${PROMOP_TOOLS_DIR:-$root/.tools/bin}"
mkdir -p "$out"

# Pinned versions: the single place they are written (the go.mod files must agree; checked below).
K8S_VERSION=v1.37.2
ETCD_VERSION=v3.6.16
PROMETHEUS_VERSION=3.16.0
PROMETHEUS_MODULE_VERSION=v0.316.0
# The release before it: the end-to-end test upgrades a running Prometheus from this one (operator rule 6), and its
# promtool checks the golden configurations rendered for it or an older release (checkConfigsWithEachPromtool).
PREVIOUS_PROMETHEUS_VERSION=3.15.1
PREVIOUS_PROMETHEUS_MODULE_VERSION=v0.315.1
# The last 2.x release: promop renders for Prometheus 2.x too (fields gated by version, as prometheus-operator does),
# and only a 2.x promtool tells whether what it renders for 2.x loads there. Just its promtool is built.
V2_PROMETHEUS_VERSION=2.55.1
V2_PROMETHEUS_MODULE_VERSION=v0.55.1
HELM_VERSION=v4.3.1
CONTAINERD_VERSION=v2.4.2
ALERTMANAGER_VERSION=0.35.0
ALERTMANAGER_MODULE_VERSION=v0.35.0
COREDNS_VERSION=v1.15.0
# The version promop renders by default for spec.thanos (prometheus-operator v0.93's DefaultThanosVersion).
THANOS_VERSION=0.42.2
THANOS_MODULE_VERSION=v0.42.2

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod"
# Upstream release builds use -trimpath and strip symbols; smaller binaries, same behaviour.
common_flags=(-trimpath)

log() { printf '[tools] %s\n' "$*" >&2; }
# shellcheck source=tools/tool-cache.sh
. "$here/tool-cache.sh"

require_pin() { # <go.mod> <module> <version>
  if ! grep -qE "^(require )?[[:space:]]*$2 $3( // indirect)?$" "$1"; then
    log "error: $1 does not pin $2 $3"; exit 1
  fi
}
require_pin "$here/kubernetes/go.mod" k8s.io/kubernetes "$K8S_VERSION"
require_pin "$here/etcd/go.mod" go.etcd.io/etcd/server/v3 "$ETCD_VERSION"
require_pin "$here/prometheus/go.mod" github.com/prometheus/prometheus "$PROMETHEUS_MODULE_VERSION"
require_pin "$here/prometheus-previous/go.mod" github.com/prometheus/prometheus "$PREVIOUS_PROMETHEUS_MODULE_VERSION"
require_pin "$here/prometheus-v2/go.mod" github.com/prometheus/prometheus "$V2_PROMETHEUS_MODULE_VERSION"
require_pin "$here/helm/go.mod" helm.sh/helm/v4 "$HELM_VERSION"
require_pin "$here/containerd/go.mod" github.com/containerd/containerd/v2 "$CONTAINERD_VERSION"
require_pin "$here/alertmanager/go.mod" github.com/prometheus/alertmanager "$ALERTMANAGER_MODULE_VERSION"
require_pin "$here/coredns/go.mod" github.com/coredns/coredns "$COREDNS_VERSION"
require_pin "$here/thanos/go.mod" github.com/thanos-io/thanos "$THANOS_MODULE_VERSION"

# up_to_date <binary> <stamp>: 0 when nothing needs building.
up_to_date() {
  local bin="$1" stamp="$2"
  if [[ -n "${KUBEBUILDER_ASSETS:-}" && -x "$KUBEBUILDER_ASSETS/$bin" ]]; then
    log "$bin: using \$KUBEBUILDER_ASSETS/$bin"; return 0
  fi
  if [[ -x "$out/$bin" ]]; then
    if [[ -f "$out/$bin.version" && "$(cat "$out/$bin.version")" == "$stamp" ]]; then
      log "$bin: $stamp already built"; return 0
    fi
    if [[ -n "${PROMOP_TOOLS_DIR:-}" && ! -f "$out/$bin.version" ]]; then
      log "$bin: using the binary you provided in \$PROMOP_TOOLS_DIR"; return 0
    fi
  fi
  return 1
}

# build <module dir> <stamp> <ldflags> <binary=package>...
build() {
  local dir="$1" stamp="$2" ldflags="$3"; shift 3
  local pairs=() pair bin pkg
  for pair in "$@"; do
    bin="${pair%%=*}"
    up_to_date "$bin" "$stamp" || pairs+=("$pair")
  done
  ((${#pairs[@]})) || return 0
  local key
  for pair in "${pairs[@]}"; do
    bin="${pair%%=*}"; pkg="${pair#*=}"
    key="$(tool_cache_key "$here/$dir" "$bin" "$pkg" "${common_flags[*]} -s -w $ldflags" "$here/build.sh")"
    if tool_cache_restore "$key" "$bin" "$out/$bin"; then
      echo "$stamp" > "$out/$bin.version"
      log "$bin: $stamp copied from the machine's tool cache"
      continue
    fi
    log "$bin: building $stamp (a cold build takes minutes; later runs reuse Go's build cache)"
    local started=$SECONDS
    (cd "$here/$dir" && go build "${common_flags[@]}" -ldflags "-s -w $ldflags" -o "$out/$bin.tmp" "$pkg")
    mv "$out/$bin.tmp" "$out/$bin"
    echo "$stamp" > "$out/$bin.version"
    tool_cache_save "$key" "$bin" "$out/$bin"
    log "$bin: built in $((SECONDS - started))s"
  done
}

build_date=2026-11-01T00:00:00Z # fixed: keeps builds reproducible and cache-friendly

build etcd "etcd $ETCD_VERSION" "" "etcd=go.etcd.io/etcd/server/v3"

k8s_minor="$(echo "$K8S_VERSION" | cut -d. -f2)"
k8s_ldflags=""
# Without these the binaries report v0.0.0-master on /version and helm rejects charts that
# declare kubeVersion (module zips are not git archives, so $Format:%H$ is never substituted).
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  k8s_ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$k8s_minor"
  k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date -X $pkg.gitCommit=0000000000000000000000000000000000000000"
done
build kubernetes "kubernetes $K8S_VERSION" "$k8s_ldflags" \
  "kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver" \
  "kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager" \
  "kubectl=k8s.io/kubernetes/cmd/kubectl" \
  "kubelet=k8s.io/kubernetes/cmd/kubelet" \
  "kube-proxy=k8s.io/kubernetes/cmd/kube-proxy" \
  "kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler"

prom_ldflags="-X github.com/prometheus/common/version.Version=$PROMETHEUS_VERSION"
prom_ldflags+=" -X github.com/prometheus/common/version.Branch=HEAD -X github.com/prometheus/common/version.BuildUser=promop"
prom_ldflags+=" -X github.com/prometheus/common/version.BuildDate=$build_date"
build prometheus "prometheus $PROMETHEUS_VERSION" "$prom_ldflags" \
  "prometheus=github.com/prometheus/prometheus/cmd/prometheus" \
  "promtool=github.com/prometheus/prometheus/cmd/promtool"

previous_prom_ldflags="${prom_ldflags//$PROMETHEUS_VERSION/$PREVIOUS_PROMETHEUS_VERSION}"
build prometheus-previous "prometheus $PREVIOUS_PROMETHEUS_VERSION" "$previous_prom_ldflags" \
  "prometheus-previous=github.com/prometheus/prometheus/cmd/prometheus" \
  "promtool-previous=github.com/prometheus/prometheus/cmd/promtool"

build prometheus-v2 "prometheus $V2_PROMETHEUS_VERSION" "${prom_ldflags//$PROMETHEUS_VERSION/$V2_PROMETHEUS_VERSION}" \
  "promtool-v2=github.com/prometheus/prometheus/cmd/promtool"

# Alertmanager and amtool: amtool check-config is the reader promop's Alertmanager configurations are checked with.
# The module embeds its web UI from ui/app/dist, which is built by npm and not in the module zip, so the build
# uses a copy of the module with an empty UI (a page saying so) through a replace directive; the API, the
# notification pipeline and the mesh are the released code.
build_alertmanager() {
  local stamp="alertmanager $ALERTMANAGER_VERSION"
  up_to_date alertmanager "$stamp" && up_to_date amtool "$stamp" && return 0
  local placeholder='<!doctype html><title>Alertmanager</title><p>This build has no web UI; use the API (/api/v2).</p>'
  # Named by the placeholder too: a changed page is a new copy, never an old copy built under a new cache key.
  local src="$root/.tools/src/alertmanager-$ALERTMANAGER_VERSION-$(printf '%s' "$placeholder" | sha256sum | cut -c1-12)" module_dir
  if [[ ! -f "$src/go.mod" ]]; then
    module_dir="$(cd "$here/alertmanager" && go mod download -json "github.com/prometheus/alertmanager@$ALERTMANAGER_MODULE_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    rm -rf "$src.tmp" && mkdir -p "$(dirname "$src")" && cp -r "$module_dir" "$src.tmp" && chmod -R u+w "$src.tmp"
    for ui in elm mantine; do
      mkdir -p "$src.tmp/ui/app/dist/$ui"
      printf '%s\n' "$placeholder" > "$src.tmp/ui/app/dist/$ui/index.html"
    done
    mv "$src.tmp" "$src"
  fi
  # A copy of the wrapper module that replaces the released module by the copy with the placeholder UI.
  local work; work="$(mktemp -d)"
  cp "$here/alertmanager/go.mod" "$here/alertmanager/go.sum" "$work/"
  (cd "$work" && go mod edit -replace "github.com/prometheus/alertmanager=$src")
  local pair bin pkg started key am_ldflags="${prom_ldflags//$PROMETHEUS_VERSION/$ALERTMANAGER_VERSION}"
  for pair in alertmanager=github.com/prometheus/alertmanager/cmd/alertmanager amtool=github.com/prometheus/alertmanager/cmd/amtool; do
    bin="${pair%%=*}"; pkg="${pair#*=}"
    # Keyed by the wrapper module: the replace above points into this clone, and the placeholder UI is this script's.
    key="$(tool_cache_key "$here/alertmanager" "$bin" "$pkg" "${common_flags[*]} -s -w $am_ldflags" "$here/build.sh")"
    if tool_cache_restore "$key" "$bin" "$out/$bin"; then
      echo "$stamp" > "$out/$bin.version"
      log "$bin: $stamp copied from the machine's tool cache"
      continue
    fi
    log "$bin: building $stamp (a cold build takes minutes; later runs reuse Go's build cache)"
    started=$SECONDS
    (cd "$work" && go build "${common_flags[@]}" -ldflags "-s -w $am_ldflags" -o "$out/$bin.tmp" "$pkg")
    mv "$out/$bin.tmp" "$out/$bin"
    echo "$stamp" > "$out/$bin.version"
    tool_cache_save "$key" "$bin" "$out/$bin"
    log "$bin: built in $((SECONDS - started))s"
  done
  rm -rf "$work"
}
build_alertmanager

# Thanos: the sidecar promop renders for spec.thanos, run beside a real Prometheus with thanos query reading it
# (packages/controller/src/workload/thanos-sidecar.prometheus.test.ts). Thanos stamps prometheus/common's version.
# The tags are its release build's (.promu.yml): Thanos casts Prometheus' labels to its protobuf labels with unsafe
# conversions that assume the slice layout, so without slicelabels the sidecar panics on its first gRPC answer.
GOFLAGS="$GOFLAGS -tags=netgo,slicelabels" build thanos "thanos $THANOS_VERSION netgo,slicelabels" \
  "${prom_ldflags//$PROMETHEUS_VERSION/$THANOS_VERSION}" "thanos=github.com/thanos-io/thanos/cmd/thanos"

build helm "helm $HELM_VERSION" "-X helm.sh/helm/v4/internal/version.version=$HELM_VERSION -X helm.sh/helm/v4/internal/version.metadata=" \
  "helm=helm.sh/helm/v4/cmd/helm"

# The test node's cluster DNS (its kubernetes plugin serves the Services' and StatefulSet pods' names).
build coredns "coredns $COREDNS_VERSION" "" "coredns=github.com/coredns/coredns"

# The test node's container runtime. CGO is off like everything else here, which leaves out the
# btrfs snapshotter (cgo only); the node uses overlayfs. The version package stamps what
# `containerd --version` and the CRI Version call report.
containerd_ldflags="-X github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION"
containerd_ldflags+=" -X github.com/containerd/containerd/v2/version.Package=github.com/containerd/containerd/v2"
GOFLAGS="$GOFLAGS -tags=no_btrfs,urfave_cli_no_docs" build containerd "containerd $CONTAINERD_VERSION" "$containerd_ldflags" \
  "containerd=github.com/containerd/containerd/v2/cmd/containerd" \
  "containerd-shim-runc-v2=github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2" \
  "ctr=github.com/containerd/containerd/v2/cmd/ctr"

# The reader check the tests compare promop's output with: Prometheus' YAML libraries and Go's regexp.
build go-check "go-check $(sha256sum "$here/go-check/main.go" "$here/go-check/go.mod" | sha256sum | cut -c1-16)" "" "go-check=."

# prometheus-operator and its config-reloader, from its Go module: the takeover end-to-end test runs both.
bash "$here/build-prometheus-operator.sh"

log "all tools ready in $out"
