/**
 * How fast the `promop` command answers: start-up next to the work itself. Each command runs as a child process
 * (`node packages/controller/bin/promop.js ...`, what `pnpm promop` and the workspace's bin run) once to warm the
 * compile cache, then `--runs` times (default 11); the median and the fastest wall time are printed with the CPU
 * time the child used (user + system, from bash's `times`), which a busy machine inflates less than wall time.
 *
 * `render -f <one Prometheus and one ServiceMonitor>` is compared with `render` of the same objects in this
 * process after a warm-up (the median of the same number of in-process renders: reading, validating, generating,
 * formatting), so start-up = the command's time minus that. `--before <dir>` also times `node <dir>/...cli.ts` of
 * another checkout (e.g. a `git archive` of an older commit with the same node_modules) for a before/after figure.
 *
 * Run: `node bench/cli-startup.bench.ts [--runs N] [--before <checkout>]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const BIN = join(REPO_ROOT, 'packages/controller/bin/promop.js');

const ONE_MONITOR = `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring}
spec:
  serviceMonitorSelector: {}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: web, namespace: monitoring}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: http, interval: 30s}]
`;

/** Wall and CPU seconds of one run of `argv` (node and its arguments). */
function timeOnce(argv: readonly string[]): { wall: number; cpu: number } {
  // bash's `times` prints the children's user and system time on its second line.
  const script = `"$@" >/dev/null 2>&1 || exit 1; times`;
  const started = performance.now();
  const out = execFileSync('bash', ['-c', script, 'bash', ...argv], { encoding: 'utf8' });
  const wall = (performance.now() - started) / 1000;
  const children = out.trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
  return { wall, cpu: (seconds[0] ?? 0) + (seconds[1] ?? 0) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function ms(seconds: number): string {
  return `${Math.round(seconds * 1000)} ms`.padStart(8);
}

/** Times a command: one warm-up run (fills the compile cache), then `runs` timed runs. */
function timeCommand(argv: readonly string[], runs: number): { wall: number; fastest: number; cpu: number } {
  timeOnce(argv);
  const samples = Array.from({ length: runs }, () => timeOnce(argv));
  return { wall: median(samples.map((s) => s.wall)), fastest: Math.min(...samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

/** Median seconds of `runs` renders of `file` inside this process, after one warm-up render. */
async function timeInProcessRender(file: string, runs: number): Promise<number> {
  const { runRenderCommand } = await import('@promop/controller/cli/render-command');
  const io = { stdout: () => {}, stderr: (text: string) => void process.stderr.write(text) };
  await runRenderCommand(['-f', file], io);
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await runRenderCommand(['-f', file], io);
    samples.push((performance.now() - started) / 1000);
  }
  return median(samples);
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' }, before: { type: 'string' } } });
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'promop-cli-bench-'));
try {
  const file = join(dir, 'one-monitor.yaml');
  writeFileSync(file, ONE_MONITOR);
  const node = process.execPath;
  const rows: { label: string; argv: string[] }[] = [
    { label: 'node -e 0 (Node itself)', argv: [node, '-e', '0'] },
    { label: 'promop --help', argv: [node, BIN, '--help'] },
    { label: 'promop render --help', argv: [node, BIN, 'render', '--help'] },
    { label: 'promop explain --help', argv: [node, BIN, 'explain', '--help'] },
    { label: 'promop render -f <one monitor>', argv: [node, BIN, 'render', '-f', file] },
  ];
  if (values.before) {
    const before = resolve(values.before);
    rows.push({ label: `before: render -f <one monitor>`, argv: [node, join(before, 'packages/controller/src/cli.ts'), 'render', '-f', file] });
    rows.push({ label: `before: --help`, argv: [node, join(before, 'packages/controller/src/cli.ts'), '--help'] });
  }
  console.log(`promop CLI start-up: ${runs} runs after a warm-up, load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}, ${process.version}`);
  console.log(`${'command'.padEnd(36)}${'median'.padStart(8)}${'fastest'.padStart(9)}${'CPU'.padStart(9)}   (run as)`);
  const timed = new Map<string, number>();
  for (const row of rows) {
    const result = timeCommand(row.argv, runs);
    timed.set(row.label, result.wall);
    const shown = row.argv.map((arg) => (arg === node ? 'node' : arg === file ? 'one-monitor.yaml' : arg.startsWith(REPO_ROOT) ? relative(REPO_ROOT, arg) : arg)).join(' ');
    console.log(`${row.label.padEnd(36)}${ms(result.wall)} ${ms(result.fastest)} ${ms(result.cpu)}   ${shown}`);
  }
  const inProcess = await timeInProcessRender(file, runs);
  const command = timed.get('promop render -f <one monitor>')!;
  console.log(`render of the same file inside a warm process: ${ms(inProcess).trim()} (median)`);
  console.log(`start-up of promop render: ${ms(command - inProcess).trim()} of ${ms(command).trim()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
