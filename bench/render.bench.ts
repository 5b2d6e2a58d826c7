/**
 * How long generate() takes and how much memory it needs for 100, 1,000 and 10,000
 * ServiceMonitors (2 endpoints each, spread over 1,000 namespaces, all selected), plus a
 * PodMonitor and a PrometheusRule per 10 ServiceMonitors.
 *
 * Run: `node bench/render.bench.ts` (Node 24 runs TypeScript directly). Each size runs in its
 * own child process so that its peak RSS is its own; the child renders once to warm up, then
 * reports the median of five timed renders, then, with a RenderMemo (as the operator keeps one per Prometheus), the
 * median wall-clock and CPU time (process.cpuUsage: the garbage collector's threads included) of 60 renders, each
 * after one ServiceMonitor changed. `--size N` runs one size in this process. Node flags given to this process
 * (e.g. the image's `--max-semi-space-size=8`) are passed to each size's process.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PodMonitor, Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { RenderMemo, generate, type GeneratorInput } from '@promop/config-generator';

const SIZES = [100, 1_000, 10_000];
const NAMESPACES = 1_000;
const TIMED_RUNS = 5;
/** Renders after a change: enough for a stable median on a shared machine. */
const CHANGE_RUNS = 60;

/** The benchmark input with `count` ServiceMonitors. */
function buildInput(count: number): GeneratorInput {
  const namespaces = Array.from({ length: NAMESPACES }, (_, i) => ({ name: `team-${i}`, labels: { monitored: 'true', team: `t${i % 17}` } }));
  const serviceMonitors = Array.from({ length: count }, (_, i): ServiceMonitor => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace: `team-${i % NAMESPACES}`, name: `app-${i}`, labels: { release: 'main' } },
    spec: {
      selector: { matchLabels: { app: `app-${i}` }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] },
      jobLabel: 'app.kubernetes.io/name',
      endpoints: [
        { port: 'web', interval: '30s', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node_name', action: 'replace' }] },
        { port: 'metrics', path: '/internal/metrics', metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'go_gc_.*', action: 'drop' }] },
      ],
    },
  }));
  const podMonitors = Array.from({ length: Math.ceil(count / 10) }, (_, i): PodMonitor => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { namespace: `team-${i % NAMESPACES}`, name: `pods-${i}`, labels: { release: 'main' } },
    spec: { selector: { matchLabels: { app: `pods-${i}` } }, podMetricsEndpoints: [{ port: 'metrics' }] },
  }));
  const prometheusRules = Array.from({ length: Math.ceil(count / 10) }, (_, i): PrometheusRule => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { namespace: `team-${i % NAMESPACES}`, name: `rules-${i}`, uid: `uid-${i}`, labels: { release: 'main' } },
    spec: {
      groups: [
        {
          name: `group-${i}`,
          rules: [
            { alert: 'HighErrorRate', expr: `sum(rate(http_requests_total{job="app-${i}",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="app-${i}"}[5m])) > 0.05`, for: '10m' },
            { record: 'job:http_requests:rate5m', expr: `sum by (job) (rate(http_requests_total{job="app-${i}"}[5m]))` },
          ],
        },
      ],
    },
  }));
  const prometheus = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { namespace: 'monitoring', name: 'main' },
    spec: {
      serviceMonitorSelector: { matchLabels: { release: 'main' } },
      serviceMonitorNamespaceSelector: { matchLabels: { monitored: 'true' } },
      podMonitorSelector: { matchLabels: { release: 'main' } },
      podMonitorNamespaceSelector: {},
      ruleSelector: { matchLabels: { release: 'main' } },
      ruleNamespaceSelector: {},
      enforcedNamespaceLabel: 'namespace',
    },
  } as Prometheus;
  return { prometheus, serviceMonitors, podMonitors, prometheusRules, namespaces, secrets: [], configMaps: [] };
}

/** One size in this process: prints a JSON line with the figures. */
function runOne(count: number): void {
  const input = buildInput(count);
  const warm = generate(input);
  const peakAfterOneRenderMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  if (!warm.ok || warm.verdicts.some((verdict) => !verdict.selected || !verdict.accepted)) {
    throw new Error(`benchmark input is not fully accepted: ${JSON.stringify(warm.verdicts.find((v) => !v.selected || !v.accepted))}`);
  }
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < TIMED_RUNS; run++) {
    const start = process.hrtime.bigint();
    const output = generate(input);
    // Inside the timing: counting UTF-8 bytes reads every character, as writing the config
    // Secrets will, so a lazily built string cannot hide its cost. Large configs are prometheus.yaml
    // plus scrape files.
    bytes = output.configs.reduce((sum, config) => sum + Buffer.byteLength(config), 0)
      + output.scrapeFiles.flat().reduce((sum, file) => sum + Buffer.byteLength(file.text), 0);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  // What the operator does on a change: the same memo across calls (one per Prometheus), one ServiceMonitor
  // replaced by a changed copy each time, as the watch cache hands out a new object for a new resourceVersion.
  const memo = new RenderMemo();
  generate({ ...input, memo });
  const changeTimes: number[] = [];
  const changeCpuTimes: number[] = [];
  for (let run = 0; run < CHANGE_RUNS; run++) {
    const index = (run * 7919) % count;
    const changed = structuredClone(input.serviceMonitors[index]!);
    changed.spec.endpoints[0]!.interval = `${31 + run}s`;
    input.serviceMonitors[index] = changed;
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    generate({ ...input, memo });
    // Not counting the output's bytes here: the operator keeps each unchanged file's size (and text) from the
    // previous call, so reading every file's bytes again per change would measure this benchmark, not promop.
    const cpu = process.cpuUsage(cpuStart);
    changeCpuTimes.push((cpu.user + cpu.system) / 1000);
    changeTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  changeTimes.sort((a, b) => a - b);
  changeCpuTimes.sort((a, b) => a - b);
  const memory = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({
      serviceMonitors: count,
      medianMs: Math.round(times[Math.floor(TIMED_RUNS / 2)] ?? 0),
      minMs: Math.round(times[0] ?? 0),
      oneChangedMedianMs: Math.round(changeTimes[Math.floor(CHANGE_RUNS / 2)] ?? 0),
      oneChangedCpuMedianMs: Math.round(changeCpuTimes[Math.floor(CHANGE_RUNS / 2)] ?? 0),
      configBytes: bytes,
      peakRssAfterOneRenderMiB: peakAfterOneRenderMiB,
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      heapUsedMiB: Math.round(memory.heapUsed / 1024 / 1024),
    })}\n`,
  );
}

const sizeFlag = process.argv.indexOf('--size');
if (sizeFlag >= 0) {
  runOne(Number(process.argv[sizeFlag + 1]));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(`node ${process.version}, ${TIMED_RUNS} timed runs per size after one warm-up, each size in a fresh process`);
  console.log(`then ${CHANGE_RUNS} renders with a memo, each after one ServiceMonitor changed`);
  console.log('ServiceMonitors  endpoints  median ms  min ms  one changed, memo: median ms (CPU ms)  prometheus.yaml  peak RSS (1 render)  peak RSS (all renders)');
  for (const size of SIZES) {
    const child = spawnSync(process.execPath, [...process.execArgv, self, '--size', String(size)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`size ${size} failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim()) as { medianMs: number; minMs: number; oneChangedMedianMs: number; oneChangedCpuMedianMs: number; configBytes: number; peakRssAfterOneRenderMiB: number; peakRssMiB: number };
    console.log(
      `${String(size).padStart(15)}  ${String(size * 2).padStart(9)}  ${String(figures.medianMs).padStart(9)}  ${String(figures.minMs).padStart(6)}  ${`${figures.oneChangedMedianMs} (${figures.oneChangedCpuMedianMs})`.padStart(38)}  ${`${(figures.configBytes / 1024 / 1024).toFixed(1)} MiB`.padStart(15)}  ${`${figures.peakRssAfterOneRenderMiB} MiB`.padStart(19)}  ${`${figures.peakRssMiB} MiB`.padStart(20)}`,
    );
  }
}
