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
# Where the time goes: docs/architecture.md, "Where the test time goes". jest runs once per lane
# (packages/testkit/src/test-lanes.ts says which file is in which, and which lane starts a shared control plane): the
# node, servers and compute lanes side by side (the node lane's files start their node, one at a time); then the quiet
# lane alone, as its bounds on latency, memory and request rates assume a machine not busy with other tests.
run_lane() { # <lane>
  local listed arguments shared
  listed="$(node packages/testkit/src/test-lanes.ts "$1")" && [[ -n "$listed" ]] || return 1
  shared="$(node packages/testkit/src/test-lanes.ts "$1" --shared-control-plane)" || return 1
  mapfile -t arguments <<< "$listed"
  PROMOP_TEST_SHARED_CONTROL_PLANE="$shared" pnpm jest --ci --json --outputFile=".cache/jest-results-$1.json" "${arguments[@]}"
}
LANES=(node servers compute quiet)
if (($# > 0)); then
  pnpm jest --ci --json --outputFile=.cache/jest-results.json "$@" || status=$?
  results=(.cache/jest-results.json)
else
  pids=()
  # An interrupted run (CI's time limit, Ctrl-C) takes the lanes' jests with it: the whole process group.
  trap 'trap - INT TERM; kill 0' INT TERM
  for lane in node servers compute; do
    run_lane "$lane" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  trap - INT TERM
  run_lane quiet || status=$?
  results=("${LANES[@]/#/.cache/jest-results-}")
  results=("${results[@]/%/.json}")
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
' "${results[@]}"

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
