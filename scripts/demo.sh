#!/usr/bin/env bash
# The local demo on a fresh machine: Node set-up, system packages (runc, CNI plugins, iptables), dependencies, the
# real tools (built from Go modules on first use), then promop on a real one-node cluster (scripts/demo.ts), running
# until Ctrl-C. Needs root (network namespaces, mounts, cgroups).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/node-env.sh
. scripts/system-deps.sh
pnpm install --frozen-lockfile
bash tools/build.sh
exec node scripts/demo.ts "$@"
