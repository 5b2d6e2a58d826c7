#!/usr/bin/env bash
# Runs every test of promop on a fresh machine: Node set-up, dependencies, the real tools
# (built from Go modules on first use), type checks, then jest; and finally checks that no
# process the tests started is still running.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/node-env.sh
pnpm install --frozen-lockfile
bash tools/build.sh
pnpm typecheck
status=0
pnpm jest --ci "$@" || status=$?

tools_dir="${PROMOP_TOOLS_DIR:-$PWD/.tools/bin}"
sleep 2 # give watchdogs a moment after jest's own teardown
if leftovers="$(pgrep -af -- "$tools_dir/" | grep -v -e pgrep -e 'go build')"; then
  echo "error: processes started by the tests are still running:" >&2
  echo "$leftovers" >&2
  pkill -KILL -f -- "$tools_dir/" || true
  status=1
fi
exit "$status"
