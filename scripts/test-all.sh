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
rm -f .cache/jest-results*.json
# Where the time goes: docs/architecture.md, "Where the test time goes". The files that need no pods are split in
# two groups run side by side, one jest each (each with its own control plane): those that talk to a control plane
# or a real Prometheus/Alertmanager spend much of their time waiting on them, the others compute, so together they
# use both cores. The real-node and chaos files (e2e/) run after, alone, as their latency bounds assume.
SERVERS='\.(apiserver|prometheus|alertmanager)\.test\.ts$'
if (($# > 0)); then
  pnpm jest --ci --json --outputFile=.cache/jest-results.json "$@" || status=$?
else
  pnpm jest --ci --json --outputFile=.cache/jest-results-servers.json --testPathIgnorePatterns '/e2e/' --testPathPatterns "$SERVERS" &
  servers=$!
  pnpm jest --ci --json --outputFile=.cache/jest-results-compute.json --testPathIgnorePatterns '/e2e/' "$SERVERS" &
  compute=$!
  wait "$servers" || status=$?
  wait "$compute" || status=$?
  pnpm jest --ci --json --outputFile=.cache/jest-results-e2e.json --testPathPatterns '/e2e/' || status=$?
fi
# One plain summary line for CI: "jest: N passed, N failed" (a group that wrote no results counts as one failure).
node -e '
  const fs = require("node:fs");
  const files = process.argv.slice(1);
  let passed = 0, failed = 0, skipped = 0;
  for (const file of files) {
    if (!fs.existsSync(file)) { failed += 1; continue; }
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    skipped += r.numPendingTests;
  }
  console.log(`jest: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' $( (($# > 0)) && echo .cache/jest-results.json || echo .cache/jest-results-servers.json .cache/jest-results-compute.json .cache/jest-results-e2e.json)

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
