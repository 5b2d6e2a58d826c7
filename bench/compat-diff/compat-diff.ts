/**
 * Differential comparison of promop's generated configuration with prometheus-operator's own (v0.93.1, built from its
 * Go module by tools/build-prometheus-operator.sh), case by case and job by job.
 *
 *   node bench/compat-diff/compat-diff.ts [--cases N] [--seed S] [--no-hand-written] [--out file.json] [--show N]
 *
 * One control plane on loopback (etcd + kube-apiserver). Every case lives in a namespace of its own with the planted
 * Secrets and ConfigMap. Each object is first created with dryRun under promop's CRDs (what promop would read: the
 * defaults of promop's schema applied), then prometheus-operator's CRDs replace promop's and the object is created
 * for real; an object either CRD set refuses is left out of its case on both sides and counted with the reason.
 * prometheus-operator then runs against the control plane and writes each case's `prometheus.yaml.gz`; promop's pure
 * generator renders the same case. The two are normalised (config-diff.ts: only what docs/compatibility.md lists as
 * different by design) and compared. Exit status 1 when a difference is found.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { generate, type GeneratorOutput, type KeyValueSource } from '@promop/config-generator';
import type { PodMonitor, Probe, Prometheus, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import { startTestEnv, type TestEnv, startProcess, stopProcess, type ManagedProcess, REPO_ROOT, diffConfigs, normalisePrometheusOperatorConfig, parsePromopConfig, type ConfigDifference } from '@promop/testkit';
import { BenchApi, inParallel, sleep } from '../side-by-side/api-client.ts';
import { prometheusOperator } from '../side-by-side/operators.ts';
import { basePrometheusSpec, type CaseObject, type CompatCase } from './case.ts';
import { documentedReason } from './documented-differences.ts';
import { installCrds } from './install-crds.ts';
import { generatedCases } from './generated-cases.ts';
import { HAND_WRITTEN_CASES } from './hand-written-cases.ts';
import { PLANTED_CONFIG_MAP_DATA, PLANTED_DATA, PLANTED_SECRET_NAMES } from './planted-objects.ts';
import { labelsPodsWithZone, type KubernetesVersionInfo } from '@promop/controller/kube';

const GROUP = 'monitoring.coreos.com';
const PLURALS: Record<string, string> = { ServiceMonitor: 'servicemonitors', PodMonitor: 'podmonitors', Probe: 'probes', ScrapeConfig: 'scrapeconfigs', Prometheus: 'prometheuses' };
const PROMETHEUS_NAME = 'p';

/** A case as created: its namespace, the objects both CRD sets accepted (as promop's CRDs default them). */
interface CreatedCase {
  spec: CompatCase;
  namespace: string;
  prometheus?: Record<string, unknown>;
  objects: Record<string, unknown>[];
  /** Objects promop's CRDs refused, with the reason: tried under prometheus-operator's too. */
  refusedByPromop: { object: Record<string, unknown>; reason: string }[];
}

/** What the run found, written with --out. */
export interface CompatReport {
  seed: number;
  generatedCases: number;
  handWrittenCases: number;
  comparedCases: number;
  comparedJobs: number;
  /** Objects left out because a CRD set refused them: `<crd set>: <kind> <case>/<name>: <reason>`. */
  skippedObjects: string[];
  /** Objects promop's CRDs refuse and prometheus-operator's accept (a CRD difference, not a generator one). */
  refusedByPromopCrdsOnly: string[];
  /** Cases prometheus-operator wrote no config for, or promop's generator refused as a whole. */
  caseFailures: string[];
  /** Differences docs/compatibility.md explains (documented-differences.ts), by reason. */
  documentedDifferences: Record<string, number>;
  differences: {
    case: string;
    /** The case's objects as promop read them, to reproduce it. */
    objects: Record<string, unknown>[];
    differences: (ConfigDifference & { promopVerdict?: string; documented?: string })[];
    /** Both sides' jobs that differ, whole (normalised). */
    jobs: Record<string, { prometheusOperator: unknown; promop: unknown }>;
  }[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      'no-hand-written': { type: 'boolean', default: false },
      out: { type: 'string' },
      show: { type: 'string', default: '40' },
    },
  });
  const seed = Number(values.seed);
  const generated = generatedCases(Number(values.cases), seed);
  const cases = [...(values['no-hand-written'] ? [] : HAND_WRITTEN_CASES), ...generated];
  const operator = prometheusOperator();
  console.log(`building/finding ${operator.prepare()}`);

  const env = await startTestEnv({ controllerManager: false });
  const api = new BenchApi({ server: env.apiServerUrl, caFile: env.pki.caCert, certFile: env.pki.adminCert, keyFile: env.pki.adminKey });
  // prometheus-operator reads topology zones from pod labels on Kubernetes 1.35+, node labels before; promop is told the same.
  const podTopologyLabels = labelsPodsWithZone(JSON.parse((await api.send('GET', '/version')).body) as KubernetesVersionInfo);
  let running: ManagedProcess | undefined;
  const report: CompatReport = { seed, generatedCases: generated.length, handWrittenCases: cases.length - generated.length, comparedCases: 0, comparedJobs: 0, skippedObjects: [], refusedByPromopCrdsOnly: [], caseFailures: [], documentedDifferences: {}, differences: [] };
  try {
    const created = await createCases(env, api, cases, report);
    const logDir = mkdtempSync(join(tmpdir(), 'compat-diff-'));
    running = operator.start(env.kubeconfigPath, 0, join(logDir, 'prometheus-operator.log'));
    console.log(`prometheus-operator started (log: ${logDir}/prometheus-operator.log)`);
    await inParallel(created, 16, async (item) => {
      if (!item.prometheus) return;
      await api.json('POST', `/apis/${GROUP}/v1/namespaces/${item.namespace}/prometheuses`, { ...item.prometheus, metadata: { name: PROMETHEUS_NAME } });
    });
    const upstreamConfigs = await waitForConfigs(api, created);
    for (const item of created) await compareCase(item, upstreamConfigs.get(item.namespace), report, logDir, podTopologyLabels);
  } finally {
    if (running) await stopProcess(running);
    api.close();
    await env.stop();
  }
  printReport(report, Number(values.show));
  if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.differences.length > 0 ? 1 : 0;
}

/** Creates every case under promop's CRDs (dry run), then under prometheus-operator's (for real). */
async function createCases(env: TestEnv, api: BenchApi, cases: readonly CompatCase[], report: CompatReport): Promise<CreatedCase[]> {
  installCrds(env, join(REPO_ROOT, 'crds'));
  const created: CreatedCase[] = cases.map((spec, index) => ({ spec, namespace: `c${index}-${spec.name}`.slice(0, 63).replace(/-+$/, ''), objects: [], refusedByPromop: [] }));
  await inParallel(created, 16, async (item) => {
    await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: item.namespace, labels: { 'compat-case': item.spec.name.slice(0, 63) } } });
    const prometheus = { apiVersion: `${GROUP}/v1`, kind: 'Prometheus', metadata: { name: PROMETHEUS_NAME, namespace: item.namespace }, spec: { ...basePrometheusSpec(), ...item.spec.prometheusSpec } };
    const accepted = await dryRunCreate(api, item.namespace, prometheus);
    if (accepted.ok) item.prometheus = accepted.object;
    else report.caseFailures.push(`${item.spec.name}: promop's CRD refuses the Prometheus: ${accepted.reason}`);
    for (const object of item.spec.objects) {
      const result = await dryRunCreate(api, item.namespace, { ...object, metadata: { ...object.metadata, namespace: item.namespace } });
      const withNamespace = { ...object, metadata: { ...object.metadata, namespace: item.namespace } };
      if (result.ok) item.objects.push(result.object);
      else item.refusedByPromop.push({ object: withNamespace, reason: result.reason });
    }
  });
  // prometheus-operator's CRDs take over the same names (server-side apply over promop's, as a user would).
  installCrds(env, prometheusOperator().crdDirectory());
  await inParallel(created, 16, async (item) => {
    for (const name of PLANTED_SECRET_NAMES) {
      await api.json('POST', `/api/v1/namespaces/${item.namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: PLANTED_DATA });
    }
    await api.json('POST', `/api/v1/namespaces/${item.namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ca' }, data: PLANTED_CONFIG_MAP_DATA });
    if (item.prometheus) {
      const check = await dryRunCreate(api, item.namespace, item.prometheus);
      if (!check.ok) {
        report.caseFailures.push(`${item.spec.name}: prometheus-operator's CRD refuses the Prometheus: ${check.reason}`);
        delete item.prometheus;
      }
    }
    const kept: Record<string, unknown>[] = [];
    for (const object of item.objects) {
      const response = await api.send('POST', `${collectionPath(item.namespace, object)}?fieldValidation=Strict`, stripServerFields(object));
      if (response.status === 201) kept.push(object);
      else report.skippedObjects.push(`prometheus-operator CRDs: ${String(object.kind)} ${item.spec.name}/${nameOf(object)}: ${apiMessage(response.body)}`);
    }
    item.objects = kept;
    for (const { object, reason } of item.refusedByPromop) {
      const where = `${String(object.kind)} ${item.spec.name}/${nameOf(object)}`;
      const upstream = await dryRunCreate(api, item.namespace, object);
      if (upstream.ok) report.refusedByPromopCrdsOnly.push(`${where}: ${reason}`);
      else report.skippedObjects.push(`both CRD sets: ${where}: ${upstream.reason}`);
    }
  });
  return created;
}

type DryRun = { ok: true; object: Record<string, unknown> } | { ok: false; reason: string };

async function dryRunCreate(api: BenchApi, namespace: string, object: Record<string, unknown>): Promise<DryRun> {
  const response = await api.send('POST', `${collectionPath(namespace, object)}?dryRun=All&fieldValidation=Strict`, stripServerFields(object));
  if (response.status === 201) return { ok: true, object: stripServerFields(JSON.parse(response.body) as Record<string, unknown>) };
  return { ok: false, reason: apiMessage(response.body) };
}

function collectionPath(namespace: string, object: Record<string, unknown>): string {
  return `/apis/${String(object.apiVersion)}/namespaces/${namespace}/${PLURALS[String(object.kind)]}`;
}

/** The object as a user would write it again: without what the API server set. */
function stripServerFields(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = object.metadata as Record<string, unknown>;
  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...kept } = metadata;
  return { ...object, metadata: kept };
}

const nameOf = (object: Record<string, unknown>): string => String((object.metadata as { name?: string }).name);

function apiMessage(body: string): string {
  try {
    return String((JSON.parse(body) as { message?: string }).message ?? body);
  } catch {
    return body.slice(0, 300);
  }
}

/**
 * Reads each case's `prometheus.yaml.gz` until every case has one and none changed over three polls in a row (so a
 * config written before every object reached prometheus-operator's informers is not the one compared).
 */
async function waitForConfigs(api: BenchApi, created: readonly CreatedCase[]): Promise<Map<string, string>> {
  const configs = new Map<string, string>();
  const deadline = Date.now() + 600_000;
  let stablePolls = 0;
  const wanted = created.filter((item) => item.prometheus);
  for (;;) {
    let changed = false;
    await inParallel(wanted, 16, async (item) => {
      const response = await api.send('GET', `/api/v1/namespaces/${item.namespace}/secrets/prometheus-${PROMETHEUS_NAME}`);
      if (response.status !== 200) return;
      const data = (JSON.parse(response.body) as { data?: Record<string, string> }).data?.['prometheus.yaml.gz'];
      if (!data) return;
      const text = gunzipSync(Buffer.from(data, 'base64')).toString('utf8');
      if (configs.get(item.namespace) !== text) {
        configs.set(item.namespace, text);
        changed = true;
      }
    });
    stablePolls = changed ? 0 : stablePolls + 1;
    if (configs.size === wanted.length && stablePolls >= 3) return configs;
    if (Date.now() > deadline) {
      console.log(`prometheus-operator wrote ${configs.size} of ${wanted.length} configs in 10 minutes`);
      return configs;
    }
    await sleep(2_000);
  }
}

async function compareCase(item: CreatedCase, upstreamText: string | undefined, report: CompatReport, scratchDirectory: string, podTopologyLabels: boolean): Promise<void> {
  if (!item.prometheus) return;
  if (upstreamText === undefined) {
    report.caseFailures.push(`${item.spec.name}: prometheus-operator wrote no configuration (see its log)`);
    return;
  }
  const output = renderWithPromop(item, podTopologyLabels);
  if (!output.ok) {
    report.caseFailures.push(`${item.spec.name}: promop refused the Prometheus: ${output.prometheusProblems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    return;
  }
  const upstream = normalisePrometheusOperatorConfig(asShardZero(upstreamText, item.prometheus));
  const ours = parsePromopConfig(output.configs[0] ?? '');
  report.comparedCases++;
  report.comparedJobs += ((upstream.scrape_configs as unknown[] | undefined) ?? []).length;
  const jobNamed = (config: Record<string, unknown>, name: string): Record<string, unknown> | undefined =>
    ((config.scrape_configs as Record<string, unknown>[] | undefined) ?? []).find((job) => job.job_name === name);
  const differences: CompatReport['differences'][number]['differences'] = [];
  const jobs: Record<string, { prometheusOperator: unknown; promop: unknown }> = {};
  for (const difference of diffConfigs(upstream, ours)) {
    const name = /^scrape_configs\[([^\]]+)\]/.exec(difference.path)?.[1];
    const context = { difference, upstreamJob: name ? jobNamed(upstream, name) : undefined, promopJob: name ? jobNamed(ours, name) : undefined, upstreamGlobal: upstream.global, promopJobs: (ours.scrape_configs as Record<string, unknown>[] | undefined) ?? [], objects: item.objects };
    const documented = await documentedReason(context, scratchDirectory);
    if (documented) {
      report.documentedDifferences[documented] = (report.documentedDifferences[documented] ?? 0) + 1;
      continue;
    }
    differences.push({ ...difference, ...promopVerdictFor(difference, output) });
    if (name) jobs[name] = { prometheusOperator: context.upstreamJob, promop: context.promopJob };
  }
  if (differences.length === 0) return;
  report.differences.push({ case: item.spec.name, objects: [item.prometheus, ...item.objects], differences, jobs });
}

/** promop's rendering of a case, with what promop would read: the objects under its CRDs, the planted Secrets. */
/**
 * With topology sharding, upstream's reloader also substitutes the shard's zone and its position in the zone; shard 0
 * (the one compared) has the first zone and position 0, which promop writes into its file.
 */
function asShardZero(text: string, prometheus: Record<string, unknown>): string {
  const strategy = (prometheus.spec as { shardingStrategy?: { mode?: string; topology?: { values?: string[] } } } | undefined)?.shardingStrategy;
  const zone = strategy?.mode === 'Topology' ? strategy.topology?.values?.[0] : undefined;
  return zone === undefined ? text : text.replaceAll('$(TOPOLOGY_ZONE)', zone).replaceAll('$(INZONE_SHARD)', '0');
}

function renderWithPromop(item: CreatedCase, podTopologyLabels: boolean): GeneratorOutput {
  const secrets: KeyValueSource[] = PLANTED_SECRET_NAMES.map((name) => ({ namespace: item.namespace, name, data: { ...PLANTED_DATA } }));
  const ofKind = <T>(kind: CaseObject['kind']): T[] => item.objects.filter((object) => object.kind === kind) as T[];
  return generate({
    prometheus: { ...item.prometheus, metadata: { name: PROMETHEUS_NAME, namespace: item.namespace } } as Prometheus,
    serviceMonitors: ofKind<ServiceMonitor>('ServiceMonitor'),
    podMonitors: ofKind<PodMonitor>('PodMonitor'),
    probes: ofKind<Probe>('Probe'),
    scrapeConfigs: ofKind<ScrapeConfig>('ScrapeConfig'),
    prometheusRules: [],
    namespaces: [{ name: item.namespace, labels: { 'compat-case': item.spec.name.slice(0, 63), 'kubernetes.io/metadata.name': item.namespace } }],
    secrets,
    configMaps: [{ namespace: item.namespace, name: 'ca', data: { ...PLANTED_CONFIG_MAP_DATA } }],
    podTopologyLabels,
  });
}

/** For a job present on one side only: promop's verdict on the object behind it. */
function promopVerdictFor(difference: ConfigDifference, output: GeneratorOutput): { promopVerdict?: string } {
  const match = /^scrape_configs\[(serviceMonitor|podMonitor|probe|scrapeConfig)\/([^/\]]+)\/([^/\]]+)/.exec(difference.path);
  if (!match || (difference.promop !== undefined && difference.prometheusOperator !== undefined)) return {};
  const kind = `${match[1]!.charAt(0).toUpperCase()}${match[1]!.slice(1)}`;
  const verdict = output.verdicts.find((v) => v.resource.kind === kind && v.resource.name === match[3]);
  if (!verdict) return { promopVerdict: 'no verdict' };
  if (!verdict.selected) return { promopVerdict: `not selected: ${verdict.reason}` };
  return { promopVerdict: verdict.accepted ? `accepted; warnings: ${verdict.warnings.join('; ') || 'none'}` : `rejected: ${verdict.reason}` };
}

function printReport(report: CompatReport, show: number): void {
  console.log(`\ncases: ${report.handWrittenCases} hand-written + ${report.generatedCases} generated (seed ${report.seed}); compared ${report.comparedCases} cases, ${report.comparedJobs} prometheus-operator jobs`);
  console.log(`objects left out (refused by a CRD set): ${report.skippedObjects.length}`);
  for (const line of report.skippedObjects.slice(0, show)) console.log(`  ${line}`);
  console.log(`objects only promop's CRDs refuse: ${report.refusedByPromopCrdsOnly.length}`);
  for (const line of report.refusedByPromopCrdsOnly.slice(0, show)) console.log(`  ${line}`);
  console.log(`case failures: ${report.caseFailures.length}`);
  for (const line of report.caseFailures.slice(0, show)) console.log(`  ${line}`);
  console.log('documented differences (docs/compatibility.md):');
  for (const [reason, count] of Object.entries(report.documentedDifferences)) console.log(`  ${count} × ${reason}`);
  const total = report.differences.reduce((sum, item) => sum + item.differences.length, 0);
  console.log(`other differences: ${total} in ${report.differences.length} cases`);
  let shown = 0;
  for (const item of report.differences) {
    for (const difference of item.differences) {
      if (shown++ >= show) return;
      console.log(`  ${item.case}: ${difference.path}\n    prometheus-operator: ${JSON.stringify(difference.prometheusOperator)}\n    promop:              ${JSON.stringify(difference.promop)}${difference.promopVerdict ? `\n    promop verdict: ${difference.promopVerdict}` : ''}`);
    }
  }
}

await main();
