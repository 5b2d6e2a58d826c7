/**
 * The lanes `scripts/test-all.sh` runs the test files in: one jest process per lane. Three lanes run side by side,
 * then the quiet lane runs alone:
 *
 * - `node`: the files that start the real node (kubelet + containerd) or build its images. The node takes fixed host
 *   paths (node-cluster.ts), so its files run one at a time in one lane, and the image cache is written by one
 *   process at a time.
 * - `servers`: the files that talk to a control plane or a real Prometheus/Alertmanager; they spend much of their
 *   time waiting on those programs.
 * - `compute`: everything else: pure code, and the scenarios that need only a control plane of their own.
 * - `quiet`: the files whose bounds are about time or request rates and assume the machine is not busy with other
 *   tests (promop's latency and memory under load, the leader take-over bound, requests per minute under API faults).
 *
 * The lanes are regular expressions over a file's path, the form jest's `--testPathPatterns` and
 * `--testPathIgnorePatterns` take, so jest finds the files and every file is in exactly one lane.
 *
 * Each lane runs with one jest worker: one node at a time, and the quiet lane's files alone, on any number of cores.
 * Only the servers and compute lanes start jest's shared control plane (`sharedTestEnv()`); the node and quiet
 * lanes' files start the control planes they need themselves, and an idle one beside them would only take CPU.
 *
 * `node packages/testkit/src/test-lanes.ts <lane>` prints the lane's jest arguments, one per line;
 * `node packages/testkit/src/test-lanes.ts <lane> --shared-control-plane` prints 1 or 0.
 */

export type Lane = 'node' | 'servers' | 'compute' | 'quiet';

/** Files whose bounds are about time or rates, run alone after the other lanes. */
const QUIET = String.raw`/e2e/chaos/(load|leader-failover|api-faults)\.test\.ts$`;
/** Files that start the real node or build its images (the chaos scenarios on the node use node-world.ts). */
const NODE = String.raw`/e2e/(src/(used-by-story|takeover|[a-z0-9-]+-on-node|node/[a-z0-9-]+|images/[a-z0-9-]+)|chaos/reload-when-back)\.test\.ts$`;
/** Files named for the real server they talk to. */
const SERVERS = String.raw`\.(apiserver|prometheus|alertmanager)\.test\.ts$`;

/** Each lane's jest arguments: which files it takes, then which it leaves to the lanes before it. */
const LANE_PATTERNS: Record<Lane, { take: string[]; leave: string[]; sharedControlPlane: boolean }> = {
  quiet: { take: [QUIET], leave: [], sharedControlPlane: false },
  node: { take: [NODE], leave: [QUIET], sharedControlPlane: false },
  servers: { take: [SERVERS], leave: [QUIET, NODE], sharedControlPlane: true },
  compute: { take: [], leave: [QUIET, NODE, SERVERS], sharedControlPlane: true },
};

export const LANES = Object.keys(LANE_PATTERNS) as Lane[];

/** The jest arguments that select `lane`'s files. */
export function jestArguments(lane: Lane): string[] {
  const { take, leave } = LANE_PATTERNS[lane];
  return ['--maxWorkers=1', ...(take.length ? ['--testPathPatterns', ...take] : []), ...(leave.length ? ['--testPathIgnorePatterns', ...leave] : [])];
}

/** Whether jest's global setup starts the shared control plane for `lane` (SHARED_CONTROL_PLANE_ENV). */
export function startsSharedControlPlane(lane: Lane): boolean {
  return LANE_PATTERNS[lane].sharedControlPlane;
}

/** The lane a test file (a path as jest sees it: absolute, with `/`) runs in. */
export function laneOf(path: string): Lane {
  const lane = LANES.find((candidate) => {
    const { take, leave } = LANE_PATTERNS[candidate];
    return (take.length === 0 || take.some((pattern) => new RegExp(pattern).test(path))) && !leave.some((pattern) => new RegExp(pattern).test(path));
  });
  if (!lane) throw new Error(`no lane takes ${path}`);
  return lane;
}

if (import.meta.main) {
  const lane = process.argv[2] as Lane;
  if (!LANES.includes(lane)) {
    process.stderr.write(`usage: test-lanes.ts <${LANES.join('|')}> [--shared-control-plane]\n`);
    process.exit(2);
  }
  const answer = process.argv[3] === '--shared-control-plane' ? [startsSharedControlPlane(lane) ? '1' : '0'] : jestArguments(lane);
  process.stdout.write(`${answer.join('\n')}\n`);
}
