#!/usr/bin/env bash
# Runs every test of promop on a fresh machine: Node set-up, dependencies, the real tools
# (built from Go modules on first use), type checks, then jest; and finally checks that no
# process the tests started is still running.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PROMOP_TEST_RUN_ID="$$-$RANDOM-$(date +%s)"
. scripts/node-env.sh
. scripts/system-deps.sh
pnpm install --frozen-lockfile
bash tools/build.sh
pnpm typecheck
status=0
mkdir -p .cache
rm -f .cache/jest-results.json
pnpm jest --ci --json --outputFile=.cache/jest-results.json "$@" || status=$?
# One plain summary line for CI: "jest: N passed, N failed".
node -e '
  const fs = require("node:fs");
  const file = ".cache/jest-results.json";
  if (!fs.existsSync(file)) { console.log("jest: 0 passed, 1 failed"); process.exit(0); }
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const failed = r.numFailedTests + r.numRuntimeErrorTestSuites;
  console.log(`jest: ${r.numPassedTests} passed, ${failed} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));
'

# Every process this run starts inherits PROMOP_TEST_RUN_ID, so leftovers are found precisely
# (other runs on the same machine are left alone).
tools_dir="${PROMOP_TOOLS_DIR:-$PWD/.tools/bin}"
sleep 2 # give watchdogs a moment after jest's own teardown
leftovers=()
for pid in $(pgrep -f -- "$tools_dir/" || true); do
  if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "PROMOP_TEST_RUN_ID=$PROMOP_TEST_RUN_ID"; then
    leftovers+=("$pid")
  fi
done
if ((${#leftovers[@]})); then
  echo "error: processes started by the tests are still running:" >&2
  ps -o pid,args -p "$(IFS=,; echo "${leftovers[*]}")" >&2 || true
  kill -KILL "${leftovers[@]}" 2>/dev/null || true
  status=1
fi
exit "$status"
