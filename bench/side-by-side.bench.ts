/**
 * promop and prometheus-operator side by side (issue 8): the same objects, the same kind of control plane, one
 * operator after the other in one run, one table with ratios. See docs/performance.md, "Side by side with
 * prometheus-operator", for the method and the figures.
 *
 * Run: `node bench/side-by-side.bench.ts [--quick] [--sizes 200,1000,10000]` (full run: about 45 minutes on 2
 * cores, --quick about 10). Other options: --changes N (P2 changes per size), --idle-minutes M,
 * --restart-minutes M, --secrets N, --secret-kib K, --only promop|prometheus-operator, --cpu-prof (promop runs
 * under `node --cpu-prof`; profiles in the raw directory), --apiserver-prof (a Go CPU profile of kube-apiserver over
 * the first 6 s of each first config, `apiserver-<operator>-<prometheus>.pprof` in the raw directory; read it with
 * `go tool pprof -top <kube-apiserver binary> <file>`).
 *
 * Per operator, on a fresh control plane (etcd + kube-apiserver with an audit log of write requests; no
 * kube-controller-manager and no kubelet, so no pod ever runs — only the control-plane side is measured):
 * 1. its own CRDs, then the operator, running as its own user in system:masters;
 * 2. a small Prometheus of another team (20 monitors of its own) is created once; then for each size N:
 *    ServiceMonitors added up to N (none selected yet), then a Prometheus selecting them all is created: **first
 *    config** = until its configuration Secret(s) hold every monitor's jobs; then one of the other team's monitors
 *    is patched: **others served** = from the first config until that change is in the other team's config;
 *    **bindings written** = from the creation until the operator settles; **RSS** is sampled; **P2** = a monitor
 *    patched (a relabeling replacement) → the new value in the config, one change at a time, the next once the
 *    operator has been quiet for a second;
 *    in the full run the largest size is reached by adding its monitors while the previous Prometheus selects
 *    them (**settle** time), then RSS and P2 are measured on that Prometheus before it is deleted and a new one
 *    measures the first config;
 *    a deletion (before the next size, and of the largest after the last) is measured the same way: **others
 *    served** from the delete, **bindings written** = until the operator settles (a Prometheus of the largest
 *    size is then created again for the steps below);
 * 3. **P4**: write requests in the audit log by the operator's user over the idle minutes, then for the minutes
 *    after a restart (and RSS once settled);
 * 4. **P3 Secrets**: unrelated Secrets are created, the operator is restarted, settles, and its RSS is sampled as long
 *    after the start as in step 3 (the restart minutes), so the two samples differ by the Secrets, not by the age.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, freePort, stopProcess, type ManagedProcess, createClientCert, kubeconfigYaml, startTestEnv } from '@promop/testkit';
import { BenchApi, sleep } from './side-by-side/api-client.ts';
import { changeSplits, countWrites, writeWritesOnlyAuditPolicy } from './side-by-side/audit-log.ts';
import { ConfigWatch, contains, holdsMonitors } from './side-by-side/config-watch.ts';
import { kubectl, prometheusOperator, promop, type OperatorUnderTest } from './side-by-side/operators.ts';
import { BETWEEN_CHANGES, SETTLED, allowingProfiler, cpuSeconds, medianRssMiB, waitUntilQuiet, type QuietOptions } from './side-by-side/process-stats.ts';
import { comparisonRows, markdownTable, percentile, type OperatorFigures, type SizeFigures } from './side-by-side/report.ts';
import { ENDPOINTS_PER_MONITOR, OTHERS, PROMETHEUS_NAMESPACE, Workload } from './side-by-side/workload.ts';

/** The user of the benchmark's own requests (its client certificate's CN, packages/testkit/src/pki.ts): the changes of P2. */
const ADMIN_USER = 'admin';
/** Monitors of the other team's Prometheus: few, so its own reconcile is no part of what "served" measures. */
const OTHER_MONITORS = 20;

/** What one run measures. */
interface Plan {
  quick: boolean;
  sizes: number[];
  /** Reach the largest size by adding monitors to a configured Prometheus (the settle measurement). */
  grow: boolean;
  changes: number;
  /** At least this many changes per size, and more until `changeBudgetMs` is spent (at most `changes`). */
  minChanges: number;
  changeBudgetMs: number;
  changeTimeoutMs: number;
  firstConfigTimeoutMs: number;
  idleMinutes: number;
  restartMinutes: number;
  secrets: number;
  secretKib: number;
  only: string | undefined;
  cpuProfile: boolean;
  apiserverProfile: boolean;
}

function parsePlan(argv: readonly string[]): Plan {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} needs a number, got ${raw}`);
    return parsed;
  };
  const quick = argv.includes('--quick');
  const sizes = (value('--sizes')?.split(',').map(Number) ?? (quick ? [200, 1_000] : [200, 1_000, 10_000])).sort((a, b) => a - b);
  if (sizes.some((size) => !Number.isInteger(size) || size <= 0)) throw new Error('--sizes needs positive integers, e.g. 200,1000');
  return {
    quick,
    sizes,
    grow: !quick && sizes.length >= 2,
    changes: number('--changes', quick ? 20 : 100),
    minChanges: quick ? 5 : 10,
    changeBudgetMs: (quick ? 45 : 240) * 1_000,
    changeTimeoutMs: 120_000,
    firstConfigTimeoutMs: 20 * 60_000,
    idleMinutes: number('--idle-minutes', quick ? 1 : 10),
    restartMinutes: number('--restart-minutes', quick ? 1 : 2),
    secrets: number('--secrets', quick ? 1_000 : 5_000),
    secretKib: number('--secret-kib', 50),
    only: value('--only'),
    cpuProfile: argv.includes('--cpu-prof'),
    apiserverProfile: argv.includes('--apiserver-prof'),
  };
}

const runStarted = performance.now();
const log = (message: string): void => {
  process.stderr.write(`[${((performance.now() - runStarted) / 1000).toFixed(0).padStart(5)} s] ${message}\n`);
};

/** The operator process of one control plane, restartable. */
class RunningOperator {
  readonly #operator: OperatorUnderTest;
  readonly #kubeconfig: string;
  readonly #rawDir: string;
  #process: ManagedProcess | undefined;
  #starts = 0;

  /** When its work is done (looser under a profiler, whose sampling costs CPU of its own). */
  readonly settled: QuietOptions;
  readonly betweenChanges: QuietOptions;

  constructor(operator: OperatorUnderTest, kubeconfig: string, rawDir: string, profiled: boolean) {
    this.settled = profiled ? allowingProfiler(SETTLED) : SETTLED;
    this.betweenChanges = profiled ? allowingProfiler(BETWEEN_CHANGES) : BETWEEN_CHANGES;
    this.#operator = operator;
    this.#kubeconfig = kubeconfig;
    this.#rawDir = rawDir;
  }

  get pid(): number {
    if (!this.#process) throw new Error('operator not running');
    return this.#process.pid;
  }

  async start(): Promise<void> {
    this.#starts += 1;
    this.#process = this.#operator.start(this.#kubeconfig, await freePort(), join(this.#rawDir, `${this.#operator.id}-${this.#starts}.log`));
  }

  async stop(): Promise<void> {
    if (this.#process) await stopProcess(this.#process, 30_000);
    this.#process = undefined;
  }

  /** Waits until it settled; throws when it exited. */
  async settle(what: string): Promise<{ settled: boolean; atMs: number }> {
    const result = await waitUntilQuiet(this.pid, this.settled);
    if (!result.settled) log(`  ${this.#operator.id} did not settle ${what} within ${this.settled.timeoutMs / 60_000} minutes`);
    return result;
  }
}

/** A Go CPU profile of kube-apiserver over the next `seconds` (its /debug/pprof, as the admin), written to `file`. */
function profileApiServer(env: { apiServerUrl: string; pki: { caCert: string; adminCert: string; adminKey: string } }, file: string, seconds: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '--cacert', env.pki.caCert, '--cert', env.pki.adminCert, '--key', env.pki.adminKey, '-o', file,
      `${env.apiServerUrl}/debug/pprof/profile?seconds=${seconds}`], (error) => {
      if (error) log(`  kube-apiserver profile failed: ${error.message}`);
      resolve();
    });
  });
}

/** Keeps the figures measured so far; called after every step, so an interrupted run still leaves them on disk. */
type RecordProgress = (figures: Partial<OperatorFigures>) => void;

async function measureOperator(operator: OperatorUnderTest, plan: Plan, rawDir: string, record: RecordProgress): Promise<OperatorFigures> {
  const started = performance.now();
  const version = operator.prepare();
  record({ id: operator.id, version });
  log(`${operator.id}: ${version}`);
  const auditLogPath = join(rawDir, `${operator.id}-audit.log`);
  const auditPolicyFile = join(rawDir, 'audit-policy.yaml');
  writeWritesOnlyAuditPolicy(auditPolicyFile);
  const env = await startTestEnv({ controllerManager: false, auditLogPath, auditPolicyFile });
  const api = new BenchApi({ server: env.apiServerUrl, caFile: env.pki.caCert, certFile: env.pki.adminCert, keyFile: env.pki.adminKey });
  let watch: ConfigWatch | undefined;
  let running: RunningOperator | undefined;
  try {
    log(`${operator.id}: control plane ready; installing its CRDs`);
    const identity = createClientCert(env.dir, operator.id, operator.user, ['system:masters']);
    const kubeconfig = join(env.dir, `${operator.id}.kubeconfig`);
    writeFileSync(kubeconfig, kubeconfigYaml(env.apiServerUrl, env.pki.caCert, identity), { mode: 0o600 });
    // Server-side: prometheus-operator's CRDs are too big for kubectl's last-applied annotation.
    execFileSync(kubectl(), ['--kubeconfig', env.kubeconfigPath, 'apply', '--server-side', '-f', operator.crdDirectory()], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync(kubectl(), ['--kubeconfig', env.kubeconfigPath, 'wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'], { stdio: ['ignore', 'ignore', 'inherit'] });

    const workload = new Workload(api);
    await workload.createBaseNamespaces();
    watch = new ConfigWatch(api, PROMETHEUS_NAMESPACE, operator.layout);
    await watch.start();
    running = new RunningOperator(operator, kubeconfig, rawDir, plan.cpuProfile && operator.id === 'promop');
    await running.start();
    await running.settle('after starting');
    const operatorRunning = running;
    const configWatch = watch;
    const otherConfig = configWatch.waitFor(OTHERS, holdsMonitors(OTHER_MONITORS, ENDPOINTS_PER_MONITOR), plan.firstConfigTimeoutMs);
    await workload.createOthers(OTHER_MONITORS);
    if (await otherConfig === undefined) throw new Error(`${operator.id} did not write the config of Prometheus ${OTHERS}`);
    await running.settle(`after creating Prometheus ${OTHERS}`);

    /**
     * Patches one of the other team's monitors now; resolves with the time from `fromMs` to the change in that
     * team's config (null: not within the timeout). Measures whether the operator serves others while it is busy
     * with a large Prometheus: its work queue free again, its API client not starved.
     */
    let otherChanges = 0;
    const othersServed = async (fromMs: number): Promise<number | null> => {
      const marker = `others-${otherChanges}-end`;
      const index = otherChanges % OTHER_MONITORS;
      otherChanges += 1;
      const seen = configWatch.waitFor(OTHERS, contains(marker), plan.changeTimeoutMs);
      await workload.changeOtherMonitor(index, marker);
      const at = await seen;
      return at === undefined ? null : Math.max(0, at - fromMs);
    };

    // Whose CPU a first config costs (the machine's cores are shared by all four): the control plane's processes,
    // the operator's and the benchmark's own (which parses every Secret the watch delivers).
    const cpuOf = (): Record<string, number> => ({
      ...Object.fromEntries(env.pids().map((pid) => [readFileSync(`/proc/${pid}/comm`, 'utf8').trim(), cpuSeconds(pid)])),
      operator: cpuSeconds(operatorRunning.pid),
      benchmark: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    });
    type FirstConfig = Pick<SizeFigures, 'firstConfigMs' | 'configBytes' | 'firstConfigCpuS' | 'createdServedMs' | 'createdSettleMs'>;
    const firstConfig = async (name: string, monitors: number): Promise<FirstConfig> => {
      const reached = configWatch.waitFor(name, holdsMonitors(monitors, ENDPOINTS_PER_MONITOR), plan.firstConfigTimeoutMs);
      const cpuBefore = cpuOf();
      const profile = plan.apiserverProfile ? profileApiServer(env, join(rawDir, `apiserver-${operator.id}-${name}.pprof`), 6) : undefined;
      const createdAt = performance.now();
      await workload.createPrometheus(name);
      const at = await reached;
      const cpuAfter = cpuOf();
      await profile;
      const firstConfigCpuS = Object.fromEntries(Object.entries(cpuAfter).map(([who, seconds]) => [who, Math.round((seconds - (cpuBefore[who] ?? 0)) * 100) / 100]));
      const files = await configWatch.current(name);
      const figures = { firstConfigMs: at === undefined ? null : at - createdAt, configBytes: files ? files.reduce((sum, file) => sum + Buffer.byteLength(file.text), 0) : null, firstConfigCpuS };
      log(`  first config of ${name} with ${monitors} monitors: ${figures.firstConfigMs === null ? 'NOT REACHED' : `${Math.round(figures.firstConfigMs)} ms`} (${((figures.configBytes ?? 0) / 1048576).toFixed(1)} MiB); CPU seconds meanwhile: ${JSON.stringify(firstConfigCpuS)}`);
      // Timed from the first config: once it is written, nothing the operator owes others may wait for the bindings.
      const createdServedMs = at === undefined ? null : await othersServed(at);
      const { settled, atMs } = await operatorRunning.settle(`after creating ${name}`);
      const createdSettleMs = settled ? Math.max(0, atMs - createdAt) : null;
      log(`  ${name} created: others served ${createdServedMs === null ? 'NOT' : `${Math.round(createdServedMs)} ms after its first config`}; settled (bindings written) ${createdSettleMs === null ? 'NOT' : `${Math.round(createdSettleMs)} ms after the create`}`);
      return { ...figures, createdServedMs, createdSettleMs };
    };

    const changes = async (name: string, monitors: number): Promise<Pick<SizeFigures, 'changeMs' | 'changeTimeouts' | 'changeSplit'>> => {
      const changeMs: number[] = [];
      let changeTimeouts = 0;
      const fromMs = Date.now();
      const budgetEnds = performance.now() + plan.changeBudgetMs;
      for (let k = 0; k < plan.changes; k++) {
        if (k >= plan.minChanges && performance.now() > budgetEnds) break;
        // A different monitor each time, spread over the namespaces (and promop's scrape files).
        const index = (k * 7_919) % monitors;
        const marker = `rev-${monitors}-${k}-end`;
        const seen = configWatch.waitFor(name, contains(marker), plan.changeTimeoutMs);
        const sentAt = performance.now();
        await workload.changeMonitor(index, marker);
        const at = await seen;
        if (at === undefined) changeTimeouts += 1;
        else changeMs.push(at - sentAt);
        await waitUntilQuiet(operatorRunning.pid, operatorRunning.betweenChanges);
      }
      log(`  P2 with ${monitors} monitors: ${changeMs.length} changes, p50 ${Math.round(percentile(changeMs, 50) ?? -1)} ms, p99 ${Math.round(percentile(changeMs, 99) ?? -1)} ms${changeTimeouts ? `, ${changeTimeouts} timeouts` : ''}`);
      // The audit log is written as responses complete; the last change's lines are in by now (the operator was quiet).
      const splits = changeSplits(auditLogPath, ADMIN_USER, operator.user, fromMs, Date.now());
      const changeSplit = { operatorMs: splits.map((split) => split.operatorMs), writeMs: splits.map((split) => split.writeMs) };
      log(`  P2 split (audit log, ${splits.length} changes): PATCH answered → the operator's first Secret write received p50 ${Math.round(percentile(changeSplit.operatorMs, 50) ?? -1)} ms; `
        + `that write stored p50 ${Math.round(percentile(changeSplit.writeMs, 50) ?? -1)} ms`);
      return { changeMs, changeTimeouts, changeSplit };
    };

    const rss = async (what: string): Promise<number | null> => {
      const { settled } = await operatorRunning.settle(what);
      const value = await medianRssMiB(operatorRunning.pid);
      log(`  RSS ${what}: ${value.toFixed(0)} MiB${settled ? '' : ' (not settled)'}`);
      return value;
    };

    const sizes: SizeFigures[] = [];
    const deletions: OperatorFigures['deletions'] = [];
    const deletePrometheus = async (name: string, monitors: number): Promise<void> => {
      const deletedAt = performance.now();
      const uid = await workload.deletePrometheus(name);
      // The other team's change goes right after the delete, while the operator handles it.
      const served = othersServed(deletedAt);
      await workload.deleteChildrenOf(uid);
      const servedMs = await served;
      const { settled, atMs } = await operatorRunning.settle(`after deleting ${name}`);
      deletions.push({ monitors, settleMs: settled ? Math.max(0, atMs - deletedAt) : null, servedMs });
      log(`  ${name} deleted; others served ${servedMs === null ? 'NOT' : `after ${Math.round(servedMs)} ms`}; settled (bindings written) ${settled ? `after ${Math.round(atMs - deletedAt)} ms` : 'NOT'}`);
    };
    let grow: OperatorFigures['grow'];
    let current: string | undefined;
    for (const [i, monitors] of plan.sizes.entries()) {
      log(`${operator.id}: ${monitors} ServiceMonitors`);
      if (plan.grow && i === plan.sizes.length - 1 && current !== undefined) {
        const from = workload.monitorCount;
        const reached = configWatch.waitFor(current, holdsMonitors(monitors, ENDPOINTS_PER_MONITOR), plan.firstConfigTimeoutMs);
        const createStart = performance.now();
        await workload.growTo(monitors);
        const lastCreate = performance.now();
        const at = await reached;
        grow = { from, to: monitors, createMs: lastCreate - createStart, settleAfterLastCreateMs: at === undefined ? null : Math.max(0, at - lastCreate) };
        log(`  added ${monitors - from} monitors to ${current} in ${Math.round(grow.createMs)} ms; config complete ${grow.settleAfterLastCreateMs === null ? 'NOT REACHED' : `${Math.round(grow.settleAfterLastCreateMs)} ms after the last create`}`);
        const rssMiB = await rss(`with ${monitors} monitors (grown)`);
        const p2 = await changes(current, monitors);
        await deletePrometheus(current, monitors);
        current = `bench-${monitors}`;
        const first = await firstConfig(current, monitors);
        sizes.push({ monitors, ...first, rssMiB, ...p2 });
        record({ sizes, deletions, grow });
        continue;
      }
      if (current !== undefined) await deletePrometheus(current, workload.monitorCount);
      await workload.growTo(monitors);
      await operatorRunning.settle(`after creating ${monitors} monitors`);
      current = `bench-${monitors}`;
      const first = await firstConfig(current, monitors);
      const rssMiB = await rss(`with ${monitors} monitors`);
      const p2 = await changes(current, monitors);
      sizes.push({ monitors, ...first, rssMiB, ...p2 });
      record({ sizes, deletions });
    }
    const largest = plan.sizes[plan.sizes.length - 1] as number;
    // Without growing, the largest size's Prometheus is never deleted above: delete it and create it again, so the
    // deletion is measured at every size and the steps below still run with it.
    if (current !== undefined && !deletions.some((deletion) => deletion.monitors === largest)) {
      await deletePrometheus(current, largest);
      await firstConfig(current, largest);
      record({ sizes, deletions });
    }

    log(`${operator.id}: P4, ${plan.idleMinutes} idle minutes`);
    await running.settle('before the idle period');
    const idleFrom = Date.now();
    await sleep(plan.idleMinutes * 60_000);
    const idleTo = Date.now();
    log(`${operator.id}: P4, restart and ${plan.restartMinutes} minutes`);
    await running.stop();
    const restartFrom = Date.now();
    await running.start();
    await sleep(plan.restartMinutes * 60_000);
    const restartTo = Date.now();
    await sleep(2_000); // the audit log is written as responses complete; let the last lines land
    const restart = { minutes: plan.restartMinutes, writes: countWrites(auditLogPath, operator.user, restartFrom, restartTo), rssMiB: await rss(`with ${largest} monitors, after a restart`) };
    const idle = { minutes: plan.idleMinutes, writes: countWrites(auditLogPath, operator.user, idleFrom, idleTo) };
    log(`  writes: ${idle.writes.total} idle, ${restart.writes.total} after the restart`);
    record({ idle, restart });

    log(`${operator.id}: ${plan.secrets} Secrets of ${plan.secretKib} KiB`);
    const secretsStart = performance.now();
    await workload.createBulkSecrets(plan.secrets, plan.secretKib);
    log(`  created in ${Math.round((performance.now() - secretsStart) / 1000)} s`);
    await running.settle('after the Secrets were created');
    await running.stop();
    const restartedAt = performance.now();
    await running.start();
    const settled = await running.settle('after a restart with the Secrets');
    // Sampled as long after the start as the restart's RSS without them (after its restart minutes): a process
    // sampled seconds after starting still holds the garbage of its first lists and render, one sampled minutes
    // later mostly not, and that difference (tens of MiB for promop, hundreds for prometheus-operator) is not the
    // Secrets'.
    await sleep(Math.max(0, restartedAt + plan.restartMinutes * 60_000 - performance.now()));
    const secretsRss = await medianRssMiB(running.pid);
    const finalConfig = current === undefined ? undefined : await configWatch.current(current);
    const secrets = {
      count: plan.secrets,
      kib: plan.secretKib,
      settleMs: settled.settled ? settled.atMs - restartedAt : null,
      rssMiB: secretsRss,
      configComplete: finalConfig !== undefined && holdsMonitors(largest, ENDPOINTS_PER_MONITOR)(finalConfig),
    };
    log(`  RSS with the Secrets: ${secretsRss.toFixed(0)} MiB; settled ${secrets.settleMs === null ? 'NOT' : `in ${Math.round(secrets.settleMs / 1000)} s`}; config complete: ${secrets.configComplete}`);
    if (watch.failure) log(`  the config watch reported: ${watch.failure.message}`);
    const figures: OperatorFigures = { id: operator.id, version, sizes, deletions, grow, idle, restart, secrets, durationS: Math.round((performance.now() - started) / 1000) };
    record(figures);
    return figures;
  } finally {
    await running?.stop();
    watch?.stop();
    api.close();
    await env.stop();
  }
}

const plan = parsePlan(process.argv.slice(2));
const stamp = new Date().toISOString().slice(0, 16).replace(':', '');
const resultsDir = join(REPO_ROOT, 'bench', 'results');
const rawDir = join(resultsDir, `raw-${stamp}${plan.quick ? '-quick' : ''}`);
mkdirSync(rawDir, { recursive: true });
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  kernel: release(),
  node: process.version,
  loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
};
log(`plan: ${JSON.stringify(plan)}; raw data in ${rawDir}`);
const operators = [promop({ cpuProfileDirectory: plan.cpuProfile ? join(rawDir, 'cpu-prof') : undefined }), prometheusOperator()]
  .filter((operator) => plan.only === undefined || operator.id === plan.only);
const command = `node bench/side-by-side.bench.ts ${process.argv.slice(2).join(' ')}`.trim();
const resultFile = join(resultsDir, `${stamp}${plan.quick ? '-quick' : ''}.json`);
const progress = new Map<string, Partial<OperatorFigures>>();

/** Writes what was measured so far (complete: with the comparison table) to the result file. */
function writeReport(state: 'complete' | 'in progress' | 'interrupted'): { rows: ReturnType<typeof comparisonRows> } {
  const done = [...progress.values()];
  const promopFigures = done.find((f) => f.id === 'promop');
  const upstreamFigures = done.find((f) => f.id === 'prometheus-operator');
  const rows = state === 'complete' && promopFigures && upstreamFigures ? comparisonRows(promopFigures as OperatorFigures, upstreamFigures as OperatorFigures) : [];
  const report = { command, state, date: new Date().toISOString(), machine: { ...machine, loadAverageNow: loadavg().map((l) => Number(l.toFixed(2))) }, plan, figures: done, table: rows };
  writeFileSync(resultFile, `${JSON.stringify(report, null, 2)}\n`);
  return { rows };
}

// A run can be stopped from outside (Ctrl-C, or someone else's clean-up): say so and keep what was measured. The
// exit hook of packages/testkit/src/child-processes.ts then stops the control plane and the operator.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`received ${signal}; figures so far are in ${resultFile}`);
    writeReport('interrupted');
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

for (const operator of operators) {
  await measureOperator(operator, plan, rawDir, (figures) => {
    progress.set(operator.id, { ...progress.get(operator.id), ...figures });
    writeReport('in progress');
  });
}
const { rows } = writeReport('complete');
console.log(`${command}\n${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, node ${machine.node}; load average ${machine.loadAverageAtStart.join(' ')} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const f of progress.values()) console.log(`${f.id}: ${f.version} (${Math.round((f.durationS ?? 0) / 60)} min)`);
if (rows.length > 0) console.log(`\n${markdownTable(rows)}\n`);
else console.log(JSON.stringify([...progress.values()], null, 2));
console.log(`written to ${resultFile}`);
