#!/usr/bin/env bash
# The local demo on a fresh machine: Node set-up, dependencies, the real tools (built from Go
# modules on first use), then a local control plane with promop's CRDs installed, running until
# Ctrl-C.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/node-env.sh
. scripts/system-deps.sh
pnpm install --frozen-lockfile
bash tools/build.sh
exec node scripts/control-plane.ts "$@"
