#!/usr/bin/env bash
# Removes everything a test node left on this machine, whatever state it is in: run by NodeCluster.stop() and, when
# the owning process dies without stopping it (SIGKILL, a crash), by the node's watchdog. Idempotent.
#
# Usage: teardown-node.sh <lock file>
# The lock file (written by node-cluster.ts) names the node's directory, its network namespace and the fixed host
# paths that did not exist before the node made them.
set -u
lock="$1"
[ -f "$lock" ] || exit 0
# shellcheck disable=SC1090
. "$lock"
: "${node_dir:?}" "${netns:?}"

kill_node_processes() {
  local pids=""
  # Everything started in the node's namespace: control plane, containerd and its shims, kubelet, kube-proxy.
  pids+=" $(ip netns pids "$netns" 2>/dev/null || true)"
  # Every container process: each lives in a pod's own namespace, but in the kubepods cgroup.
  local hierarchy
  for hierarchy in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
    [ -d "$hierarchy" ] && pids+=" $(find "$hierarchy" -name cgroup.procs -exec cat {} + 2>/dev/null || true)"
  done
  pids="$(echo $pids)"
  [ -n "$pids" ] || return 1
  kill -KILL $pids 2>/dev/null || true
  return 0
}
for _ in 1 2 3 4 5 6 7 8 9 10; do
  kill_node_processes || break
  sleep 0.5
done

# Mounts under the node's directory (pod volumes, overlay snapshots, pod network namespaces), deepest first.
for _ in 1 2 3; do
  mounts="$(awk -v d="$node_dir" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r)"
  [ -n "$mounts" ] || break
  for m in $mounts; do umount -l "$m" 2>/dev/null || true; done
done

# The kubepods cgroups (kubelet makes them at fixed paths in every hierarchy).
for hierarchy in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
  [ -d "$hierarchy" ] && find "$hierarchy" -depth -type d -exec rmdir {} \; 2>/dev/null
done

ip netns delete "$netns" 2>/dev/null || true
rm -rf "$node_dir"
for path in ${created_paths:-}; do rm -rf "$path"; done
rm -f "$lock"
exit 0
