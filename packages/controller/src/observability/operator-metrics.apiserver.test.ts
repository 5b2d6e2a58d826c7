/**
 * promop's /metrics while the operator runs against the real API server (as its least-privilege ServiceAccount): a
 * Prometheus selecting a good and a broken ServiceMonitor; the broken one fixed; the Prometheus deleted. Every
 * figure is checked against what really happened: the selected/rejected counts against the monitors, the config
 * bytes against the Secret promop wrote, the queue's adds, waits and work against the number of reconciles. There
 * is no kubelet, so no pod is ever ready: no reload is attempted and the reload counters stay at zero.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed } from '@promop/testkit';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { eventually } from '@promop/testkit';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { MeteredRawApi } from './metered-raw-api.ts';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';
import { OperatorMetrics } from './operator-metrics.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM = `team-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': id };
const PROMETHEUS_KEY = `${MONITORING}/main`;

let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
let server: MetricsServer | undefined;
const metrics = new OperatorMetrics({ processMetrics: false });

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });

/** One sample of the exposition text. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics, parsed (prom-client writes one sample per line, label values without escaped quotes here). */
async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${server?.url}/metrics`);
  expect(response.status).toBe(200);
  return (await response.text()).split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`unparsable line ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    return { name: match[1] ?? '', labels, value: Number(match[3]) };
  });
}

/** The value of the one sample of `name` with these labels (undefined: no such series). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

/** The sum over every sample of `name` matching these labels. */
function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((total, s) => total + s.value, 0);
}

const managed = (samples: Sample[], state: string) => value(samples, 'promop_managed_resources', { prometheus: PROMETHEUS_KEY, kind: 'ServiceMonitor', state });

/**
 * The queue's books balance once it is idle: every add was taken once (queue duration observed), every take was
 * worked (work duration) and is one reconcile, counted by result and timed.
 */
function queueBalanced(samples: Sample[]): boolean {
  const adds = value(samples, 'promop_workqueue_adds_total');
  const reconciles = sum(samples, 'promop_reconcile_total');
  return adds !== undefined && adds > 0 && value(samples, 'promop_workqueue_depth') === 0
    && value(samples, 'promop_workqueue_processing') === 0 && value(samples, 'promop_workqueue_delayed') === 0
    && value(samples, 'promop_workqueue_queue_duration_seconds_count') === adds
    && value(samples, 'promop_workqueue_work_duration_seconds_count') === adds
    && reconciles === adds
    && sum(samples, 'promop_reconcile_duration_seconds_count') === adds;
}

const serviceMonitor = (name: string, relabelRegex: string) => ({
  apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], regex: relabelRegex, targetLabel: 'pod', action: 'replace' }] }] },
});

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING, TEAM]) await core.createNamespace({ body: { metadata: { name, labels: { 'promop.test/scraped-by': id } } } });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: INSTANCE_LABEL },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: { 'promop.test/scraped-by': id } } },
    },
  }));
  await custom.createNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM), body: serviceMonitor('good', '(.*)') });
  await custom.createNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM), body: serviceMonitor('broken', '(unclosed') });

  server = await startMetricsServer({ metrics, isReady: () => true, address: '127.0.0.1:0' });
  // A relist every 2 s, so the test sees relists counted (the default is 5 minutes).
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), metrics, prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`, relistIntervalMs: 2_000 });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
  await server?.close(1_000);
});

describe('the metrics of a running operator', () => {
  it('count the good ServiceMonitor as selected and the broken one as rejected, under their Prometheus', async () => {
    const samples = await eventually(scrape, (s) => managed(s, 'selected') === 1 && managed(s, 'rejected') === 1);
    expect([managed(samples, 'selected'), managed(samples, 'rejected')]).toEqual([1, 1]);
    expect(value(samples, 'promop_managed_resources', { prometheus: PROMETHEUS_KEY, kind: 'PrometheusRule', state: 'selected' })).toBe(0);
  });

  it('give the size of the config promop wrote for the shard, byte for byte', async () => {
    const written = async () => Buffer.from((await core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' })).data?.['prometheus.yaml'] ?? '', 'base64').length;
    const bytes = await eventually(written, (n) => n > 0);
    expect(bytes).toBeGreaterThan(0);
    const settled = await eventually(scrape, (s) => value(s, 'promop_config_bytes', { prometheus: PROMETHEUS_KEY, shard: '0' }) === bytes);
    expect(value(settled, 'promop_config_bytes', { prometheus: PROMETHEUS_KEY, shard: '0' })).toBe(bytes);
    expect(settled.some((s) => s.name === 'promop_config_bytes' && s.labels.shard === '1')).toBe(false);
    // The reload step follows the write. No pod is ready (no kubelet): nothing failed to load, nothing was called.
    const reloaded = await eventually(scrape, (s) => value(s, 'promop_shard_config_loaded', { prometheus: PROMETHEUS_KEY, shard: '0' }) !== undefined);
    expect(value(reloaded, 'promop_shard_config_loaded', { prometheus: PROMETHEUS_KEY, shard: '0' })).toBe(1);
    expect(sum(reloaded, 'promop_reload_total')).toBe(0);
  });

  it('balance the work queue\'s books against the reconciles, and count each reconcile that asked for a retry as a queue retry', async () => {
    const samples = await eventually(scrape, queueBalanced);
    expect(queueBalanced(samples)).toBe(true);
    expect(value(samples, 'promop_reconcile_total', { result: 'success' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'promop_reconcile_total', { result: 'error' })).toBe(0);
    // A retry (a 409 when a binding was written from a cache one write behind) is rescheduled once with backoff.
    expect(value(samples, 'promop_workqueue_retries_total')).toBe(value(samples, 'promop_reconcile_total', { result: 'retry' }));
    // Waits and work took time, and not more than the test has run.
    const workSeconds = value(samples, 'promop_workqueue_work_duration_seconds_sum') ?? 0;
    expect(workSeconds).toBeGreaterThan(0);
    expect(workSeconds).toBeLessThan(120);
  });

  it('count one list and one watch per cache at start, then the relists, without failures', async () => {
    const samples = await eventually(scrape, (s) => (value(s, 'promop_list_operations_total', { resource: 'prometheuses' }) ?? 0) >= 3);
    for (const resource of ['prometheuses', 'servicemonitors', 'podmonitors', 'prometheusrules', 'namespaces', 'secrets', 'configmaps', 'statefulsets', 'services', 'pods']) {
      expect([resource, (value(samples, 'promop_list_operations_total', { resource }) ?? 0) >= 1]).toEqual([resource, true]);
      expect([resource, (value(samples, 'promop_watch_operations_total', { resource }) ?? 0) >= 1]).toEqual([resource, true]);
    }
    // Three lists of Prometheus objects: the first and two relists on the 2 s timer.
    expect(value(samples, 'promop_list_operations_total', { resource: 'prometheuses' })).toBeGreaterThanOrEqual(3);
    expect(sum(samples, 'promop_list_operations_failed_total')).toBe(0);
  });

  it('move the broken ServiceMonitor from rejected to selected once it is fixed, and the config grows', async () => {
    const before = value(await scrape(), 'promop_config_bytes', { prometheus: PROMETHEUS_KEY, shard: '0' }) ?? 0;
    await custom.patchNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAM), name: 'broken',
      body: [{ op: 'replace', path: '/spec/endpoints/0/relabelings/0/regex', value: '(closed)' }],
    });
    const samples = await eventually(scrape, (s) => managed(s, 'selected') === 2 && managed(s, 'rejected') === 0);
    expect([managed(samples, 'selected'), managed(samples, 'rejected')]).toEqual([2, 0]);
    expect(value(samples, 'promop_config_bytes', { prometheus: PROMETHEUS_KEY, shard: '0' })).toBeGreaterThan(before);
  });

  it('count the Prometheus by its Reconciled condition: False while its spec is broken, True again once fixed', async () => {
    const reconciled = (s: Sample[], status: string) => value(s, 'promop_prometheus_reconciled', { status });
    const ok = await eventually(scrape, (s) => reconciled(s, 'True') === 1);
    expect([reconciled(ok, 'True'), reconciled(ok, 'False'), reconciled(ok, 'Unknown')]).toEqual([1, 0, 0]);
    const prometheus = { ...crd(PLURALS.Prometheus, MONITORING), name: 'main' };
    // remoteWrite naming a Secret that does not exist: Reconciled=False, ReconciliationFailed.
    await custom.patchNamespacedCustomObject({ ...prometheus, body: [{ op: 'add', path: '/spec/remoteWrite', value: [{ url: 'https://rw.example.com/api/v1/write', basicAuth: { username: { name: 'missing', key: 'user' }, password: { name: 'missing', key: 'password' } } }] }] });
    const broken = await eventually(scrape, (s) => reconciled(s, 'False') === 1);
    expect([reconciled(broken, 'True'), reconciled(broken, 'False')]).toEqual([0, 1]);
    await custom.patchNamespacedCustomObject({ ...prometheus, body: [{ op: 'remove', path: '/spec/remoteWrite' }] });
    const fixed = await eventually(scrape, (s) => reconciled(s, 'True') === 1);
    expect([reconciled(fixed, 'True'), reconciled(fixed, 'False')]).toEqual([1, 0]);
  });

  it('drop the series of a deleted Prometheus', async () => {
    await custom.deleteNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' });
    const samples = await eventually(scrape, (s) => !s.some((sample) => sample.labels.prometheus === PROMETHEUS_KEY));
    expect(samples.filter((sample) => sample.labels.prometheus === PROMETHEUS_KEY)).toEqual([]);
    expect(sum(samples, 'promop_prometheus_reconciled')).toBe(0);
  });
});

describe('the counted API client', () => {
  it('counts a list and a watch the API server refuses as failed, by resource', async () => {
    const counted = new OperatorMetrics({ processMetrics: false });
    const api = new MeteredRawApi(admin, counted.cacheRequests);
    try {
      await expect(api.getJson('/api/v1/namespaces/default/nosuchthings', { query: { limit: 10 } })).rejects.toThrow();
      await expect(api.watch('/api/v1/namespaces/default/nosuchthings', { query: {} }, () => {})).rejects.toThrow();
    } finally {
      api.close();
    }
    const text = await counted.metricsText();
    expect(text).toContain('promop_list_operations_total{resource="nosuchthings"} 1');
    expect(text).toContain('promop_list_operations_failed_total{resource="nosuchthings"} 1');
    expect(text).toContain('promop_watch_operations_total{resource="nosuchthings"} 1');
    expect(text).toContain('promop_watch_operations_failed_total{resource="nosuchthings"} 1');
  });
});
