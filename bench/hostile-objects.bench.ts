/**
 * How long one render takes when a single team's object is written to hurt everyone (issue 23), next to the same
 * render without it: 1,000 ServiceMonitors (2 endpoints each) and 100 PrometheusRules, plus one hostile object.
 * The goal: no render longer than 1 s, and the hostile object rejected alone (every other object accepted).
 *
 * Run: `node bench/hostile-objects.bench.ts` (Node 24 runs TypeScript directly). Each case runs in its own child
 * process, so its peak RSS is its own: the first render (cold, what a restart or a new object costs), then the
 * median of RUNS more renders without a memo. `--case NAME` runs one case in this process.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { generate, type GeneratorInput, type Verdict } from '@promop/config-generator';

const MONITORS = 1_000;
const NAMESPACES = 100;
const RUNS = 3;

function serviceMonitor(namespace: string, name: string, spec: Partial<ServiceMonitor['spec']> = {}): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace, name },
    spec: {
      selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] },
      endpoints: [{ port: 'web', interval: '30s' }, { port: 'metrics', path: '/internal/metrics' }],
      ...spec,
    },
  } as ServiceMonitor;
}

function prometheusRule(namespace: string, name: string, rules: Record<string, unknown>[]): PrometheusRule {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace, name, uid: `uid-${namespace}-${name}` }, spec: { groups: [{ name: 'g', rules }] } } as PrometheusRule;
}

/** The ordinary configuration every case shares. */
function baseline(): GeneratorInput {
  const prometheus = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { namespace: 'monitoring', name: 'main', uid: '7e1c9a52-3b4d-4e6f-8a9b-0c1d2e3f4a5b' },
    spec: { version: 'v3.5.0', serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {} },
  } as Prometheus;
  return {
    prometheus,
    serviceMonitors: Array.from({ length: MONITORS }, (_, i) => serviceMonitor(`team-${i % NAMESPACES}`, `app-${i}`)),
    podMonitors: [],
    prometheusRules: Array.from({ length: MONITORS / 10 }, (_, i) => prometheusRule(`team-${i % NAMESPACES}`, `rules-${i}`, [
      { alert: 'HighErrorRate', expr: `sum(rate(http_requests_total{job="app-${i}",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="app-${i}"}[5m])) > 0.05`, for: '10m', annotations: { summary: '{{ $labels.job }} fails {{ $value | humanizePercentage }} of requests' } },
      { record: 'job:http_requests:rate5m', expr: `sum by (job) (rate(http_requests_total{job="app-${i}"}[5m]))` },
    ])),
    namespaces: [...Array.from({ length: NAMESPACES }, (_, i) => ({ name: `team-${i}`, labels: {} })), { name: 'hostile', labels: {} }],
    secrets: [],
    configMaps: [],
  };
}

const chain = (term: string, operator: string, bytes: number) => Array.from({ length: Math.ceil(bytes / (term.length + operator.length)) }, () => term).join(operator);
const rule = (name: string, rules: Record<string, unknown>[]) => ({ prometheusRules: [prometheusRule('hostile', name, rules)] });
const monitor = (name: string, spec: Partial<ServiceMonitor['spec']>) => ({ serviceMonitors: [serviceMonitor('hostile', name, spec)] });
const selectorOf = (expressions: number) => ({ matchExpressions: Array.from({ length: expressions }, (_, i) => ({ key: `label-${i}`, operator: 'In' as const, values: ['a', 'b'] })) });

/** Each case: the one object added to the baseline. */
const CASES: Record<string, () => Partial<Pick<GeneratorInput, 'serviceMonitors' | 'prometheusRules'>>> = {
  'baseline (no hostile object)': () => ({}),
  '1.4 MB PromQL (up + up + ...)': () => rule('sum-chain', [{ alert: 'A', expr: chain('up', ' + ', 1_400_000) }]),
  '1.4 MB PromQL (- - - ... up)': () => rule('unary', [{ alert: 'A', expr: `${'-'.repeat(1_400_000)}up` }]),
  '500 KB PromQL (- - - ... up), under the size limit': () => rule('unary-500k', [{ alert: 'A', expr: `${'-'.repeat(500_000)}up` }]),
  '500 KB PromQL, flat, type error at its end': () => rule('flat', [{ alert: 'A', expr: `up{${chain('l="v"', ',', 500_000)}} + "s"` }]),
  'PromQL nested 100,000 parentheses deep': () => rule('deep', [{ alert: 'A', expr: `${'('.repeat(100_000)}up${')'.repeat(100_000)}` }]),
  '1 MB alert template': () => rule('template', [{ alert: 'A', expr: 'up == 0', annotations: { description: '{{ $labels.instance }} '.repeat(45_000) } }]),
  '500 KB alert template, under the size limit': () => rule('template-500k', [{ alert: 'A', expr: 'up == 0', annotations: { description: '{{ $labels.instance }} '.repeat(21_000) } }]),
  '30,000 invalid rules': () => rule('invalid', Array.from({ length: 30_000 }, () => ({ expr: 'up' }))),
  'ServiceMonitor, 10,000 matchExpressions': () => monitor('selector', { selector: selectorOf(10_000) }),
  'ServiceMonitor, 1 MB relabeling replacement': () => monitor('replacement', { endpoints: [{ port: 'web', relabelings: [{ targetLabel: 'x', replacement: 'y'.repeat(1024 * 1024) }] }] }),
  'ServiceMonitor, 1,000 endpoints x 100 matchExpressions': () => monitor('endpoints', { selector: selectorOf(100), endpoints: Array.from({ length: 1_000 }, (_, i) => ({ port: `p${i}` })) }),
  // Just under what repeated-selector.ts refuses before rendering (its least bytes per requirement are RoleSelector's).
  'ServiceMonitor, RoleSelector, 2,300 endpoints x 200 exprs': () => monitor('role-selector', { selectorMechanism: 'RoleSelector', selector: selectorOf(200), endpoints: Array.from({ length: 2_300 }, (_, i) => ({ port: `p${i}` })) }),
  'ServiceMonitor, 5,000 endpoints x 200 matchExpressions': () => monitor('endpoints-5k', { selector: selectorOf(200), endpoints: Array.from({ length: 5_000 }, (_, i) => ({ port: `p${i}` })) }),
};

interface Figures {
  firstMs: number;
  medianMs: number;
  peakRssMiB: number;
  /** `accepted`, `rejected: <reason>`, or `-` for the baseline. */
  hostile: string;
  othersAccepted: boolean;
}

function runCase(name: string): void {
  const base = baseline();
  const extra = CASES[name]!();
  const input: GeneratorInput = {
    ...base,
    serviceMonitors: [...base.serviceMonitors, ...(extra.serviceMonitors ?? [])],
    prometheusRules: [...base.prometheusRules, ...(extra.prometheusRules ?? [])],
  };
  let start = process.hrtime.bigint();
  const output = generate(input);
  const firstMs = Number(process.hrtime.bigint() - start) / 1e6;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    start = process.hrtime.bigint();
    generate(input);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const isHostile = (verdict: Verdict) => verdict.resource.namespace === 'hostile';
  const hostile = output.verdicts.find(isHostile);
  const others = output.verdicts.filter((verdict) => !isHostile(verdict));
  const figures: Figures = {
    firstMs: Math.round(firstMs),
    medianMs: Math.round(times[Math.floor(RUNS / 2)]!),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    hostile: !hostile ? '-' : hostile.selected && hostile.accepted ? 'accepted' : `rejected: ${hostile.reason}`,
    othersAccepted: output.ok && others.every((verdict) => verdict.selected && verdict.accepted),
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const caseFlag = process.argv.indexOf('--case');
if (caseFlag >= 0) {
  runCase(process.argv[caseFlag + 1]!);
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(`node ${process.version}; ${MONITORS} ServiceMonitors and ${MONITORS / 10} PrometheusRules plus one hostile object; each case in a fresh process`);
  console.log(`first render (cold), then the median of ${RUNS} more; goal: no render over 1,000 ms`);
  console.log(`${'case'.padEnd(56)}  first ms  median ms  peak RSS  others accepted  the hostile object`);
  for (const name of Object.keys(CASES)) {
    const child = spawnSync(process.execPath, [...process.execArgv, self, '--case', name], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`case ${name} failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim()) as Figures;
    const verdict = figures.hostile.length > 90 ? `${figures.hostile.slice(0, 89)}…` : figures.hostile;
    console.log(
      `${name.padEnd(56)}  ${String(figures.firstMs).padStart(8)}  ${String(figures.medianMs).padStart(9)}  ${`${figures.peakRssMiB} MiB`.padStart(8)}  ${(figures.othersAccepted ? 'yes' : 'NO').padStart(15)}  ${verdict}`,
    );
  }
}
