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

build_script="$here/build.sh"
# shellcheck source=tools/build-lib.sh
. "$here/build-lib.sh"

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

build_date=2026-11-01T00:00:00Z # fixed: keeps builds reproducible and cache-friendly
k8s_minor="$(echo "$K8S_VERSION" | cut -d. -f2)"
k8s_ldflags=""
# Without these the binaries report v0.0.0-master on /version and helm rejects charts that
# declare kubeVersion (module zips are not git archives, so $Format:%H$ is never substituted).
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  k8s_ldflags+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$k8s_minor"
  k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=$build_date -X $pkg.gitCommit=0000000000000000000000000000000000000000"
done
prom_ldflags="-X github.com/prometheus/common/version.Version=$PROMETHEUS_VERSION"
prom_ldflags+=" -X github.com/prometheus/common/version.Branch=HEAD -X github.com/prometheus/common/version.BuildUser=promop"
prom_ldflags+=" -X github.com/prometheus/common/version.BuildDate=$build_date"

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
  # A copy of the wrapper module that replaces the released module by the copy with the placeholder UI; keyed by the
  # wrapper module all the same (the replace points into this clone, and the placeholder page is this script's).
  local work; work="$(mktemp -d)"
  cp "$here/alertmanager/go.mod" "$here/alertmanager/go.sum" "$work/"
  (cd "$work" && go mod edit -replace "github.com/prometheus/alertmanager=$src")
  build_in="$work" build alertmanager "$stamp" "${prom_ldflags//$PROMETHEUS_VERSION/$ALERTMANAGER_VERSION}" \
    "alertmanager=github.com/prometheus/alertmanager/cmd/alertmanager" \
    "amtool=github.com/prometheus/alertmanager/cmd/amtool"
  rm -rf "$work"
}

# Two module builds at a time (build-lib.sh), the longest cold builds first so that the last ones are short.
in_background kubernetes build kubernetes "kubernetes $K8S_VERSION" "$k8s_ldflags" \
  "kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver" \
  "kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager" \
  "kubectl=k8s.io/kubernetes/cmd/kubectl" \
  "kubelet=k8s.io/kubernetes/cmd/kubelet" \
  "kube-proxy=k8s.io/kubernetes/cmd/kube-proxy" \
  "kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler"

in_background prometheus-v2 build prometheus-v2 "prometheus $V2_PROMETHEUS_VERSION" \
  "${prom_ldflags//$PROMETHEUS_VERSION/$V2_PROMETHEUS_VERSION}" \
  "promtool-v2=github.com/prometheus/prometheus/cmd/promtool"

# prometheus-operator and its config-reloader, from its Go module: the takeover end-to-end test runs both.
in_background prometheus-operator bash "$here/build-prometheus-operator.sh"

in_background prometheus build prometheus "prometheus $PROMETHEUS_VERSION" "$prom_ldflags" \
  "prometheus=github.com/prometheus/prometheus/cmd/prometheus" \
  "promtool=github.com/prometheus/prometheus/cmd/promtool"

in_background prometheus-previous build prometheus-previous "prometheus $PREVIOUS_PROMETHEUS_VERSION" \
  "${prom_ldflags//$PROMETHEUS_VERSION/$PREVIOUS_PROMETHEUS_VERSION}" \
  "prometheus-previous=github.com/prometheus/prometheus/cmd/prometheus" \
  "promtool-previous=github.com/prometheus/prometheus/cmd/promtool"

# Thanos: the sidecar promop renders for spec.thanos, run beside a real Prometheus with thanos query reading it
# (packages/controller/src/workload/thanos-sidecar.prometheus.test.ts). Thanos stamps prometheus/common's version.
# The tags are its release build's (.promu.yml): Thanos casts Prometheus' labels to its protobuf labels with unsafe
# conversions that assume the slice layout, so without slicelabels the sidecar panics on its first gRPC answer.
GOFLAGS="$GOFLAGS -tags=netgo,slicelabels" in_background thanos build thanos "thanos $THANOS_VERSION netgo,slicelabels" \
  "${prom_ldflags//$PROMETHEUS_VERSION/$THANOS_VERSION}" "thanos=github.com/thanos-io/thanos/cmd/thanos"

in_background helm build helm "helm $HELM_VERSION" \
  "-X helm.sh/helm/v4/internal/version.version=$HELM_VERSION -X helm.sh/helm/v4/internal/version.metadata=" \
  "helm=helm.sh/helm/v4/cmd/helm"

# The test node's container runtime. CGO is off like everything else here, which leaves out the
# btrfs snapshotter (cgo only); the node uses overlayfs. The version package stamps what
# `containerd --version` and the CRI Version call report.
containerd_ldflags="-X github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION"
containerd_ldflags+=" -X github.com/containerd/containerd/v2/version.Package=github.com/containerd/containerd/v2"
GOFLAGS="$GOFLAGS -tags=no_btrfs,urfave_cli_no_docs" in_background containerd build containerd "containerd $CONTAINERD_VERSION" \
  "$containerd_ldflags" \
  "containerd=github.com/containerd/containerd/v2/cmd/containerd" \
  "containerd-shim-runc-v2=github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2" \
  "ctr=github.com/containerd/containerd/v2/cmd/ctr"

# The test node's cluster DNS (its kubernetes plugin serves the Services' and StatefulSet pods' names).
in_background coredns build coredns "coredns $COREDNS_VERSION" "" "coredns=github.com/coredns/coredns"

in_background alertmanager build_alertmanager

in_background etcd build etcd "etcd $ETCD_VERSION" "" "etcd=go.etcd.io/etcd/server/v3"

# The reader check the tests compare promop's output with: Prometheus' YAML libraries and Go's regexp. Stamped with
# its sources' content (not their paths: the same in every clone).
in_background go-check build go-check "go-check $(cat "$here/go-check/main.go" "$here/go-check/go.mod" | sha256sum | cut -c1-16)" "" "go-check=."

wait_for_builds
log "all tools ready in $out"
