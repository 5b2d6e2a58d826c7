#!/usr/bin/env bash
# Runs every test of promop on a fresh machine: Node set-up, dependencies, the real tools
# (built from Go modules on first use), type checks, generated-file checks, then jest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/node-env.sh
pnpm install --frozen-lockfile
bash tools/build.sh
pnpm typecheck
pnpm jest --ci "$@"
