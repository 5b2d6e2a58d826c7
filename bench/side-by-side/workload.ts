/**
 * The objects both operators are measured with, all in monitoring.coreos.com/v1 as both accept them:
 * ServiceMonitor `app-<i>` in namespace `team-<i mod 1,000>` (labelled `monitored=true`), two endpoints each (one with relabelings and an interval, one with a path and a metric
 * relabeling, as in bench/render.bench.ts), and Prometheus objects in `monitoring` selecting them through a label
 * selector and a namespace label selector. No Services: neither operator reads them (Prometheus discovers the
 * endpoints itself), so they would only cost requests.
 *
 * Beside them, a small Prometheus `others` (also in `monitoring`) selects its own monitors `other-<i>` in namespace
 * `others`, which the large ones do not select: the other team whose changes must still be served while a large
 * Prometheus is created or deleted.
 */
import { BenchApi, inParallel } from './api-client.ts';

/** Monitors are spread over this many namespaces (fewer while there are fewer monitors). */
export const TEAM_NAMESPACES = 1_000;
/** Jobs per ServiceMonitor: one per endpoint. */
export const ENDPOINTS_PER_MONITOR = 2;
export const PROMETHEUS_NAMESPACE = 'monitoring';
export const BULK_SECRETS_NAMESPACE = 'bulk';
/** The small Prometheus of another team, and the namespace of its monitors. */
export const OTHERS = 'others';
/** Requests in flight while creating objects. */
const CREATE_CONCURRENCY = 24;

const GROUP_VERSION = 'monitoring.coreos.com/v1';
const monitorsPath = (namespace: string) => `/apis/${GROUP_VERSION}/namespaces/${namespace}/servicemonitors`;
const prometheusesPath = `/apis/${GROUP_VERSION}/namespaces/${PROMETHEUS_NAMESPACE}/prometheuses`;

export const teamNamespace = (monitor: number): string => `team-${monitor % TEAM_NAMESPACES}`;
export const monitorName = (monitor: number): string => `app-${monitor}`;

/**
 * The endpoints of a monitor; `marker` is the replacement of its second relabeling, the value a change sets and
 * the benchmark then looks for in the configuration.
 */
export function monitorEndpoints(marker: string): unknown[] {
  return [
    {
      port: 'web',
      interval: '30s',
      relabelings: [
        { sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node_name', action: 'replace' },
        { targetLabel: 'bench_revision', replacement: marker, action: 'replace' },
      ],
    },
    { port: 'metrics', path: '/internal/metrics', metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'go_gc_.*', action: 'drop' }] },
  ];
}

/** Creates `monitoring`, the bulk Secrets' namespace and (as they are needed) the team namespaces and monitors. */
export class Workload {
  readonly #api: BenchApi;
  #namespaces = 0;
  #monitors = 0;

  constructor(api: BenchApi) {
    this.#api = api;
  }

  get monitorCount(): number {
    return this.#monitors;
  }

  async createBaseNamespaces(): Promise<void> {
    for (const name of [PROMETHEUS_NAMESPACE, BULK_SECRETS_NAMESPACE]) await this.#api.json('POST', '/api/v1/namespaces', { metadata: { name } });
  }

  /** Adds ServiceMonitors (and the namespaces they need) until there are `count`. */
  async growTo(count: number): Promise<void> {
    const namespaces = Math.min(count, TEAM_NAMESPACES);
    const newNamespaces = Array.from({ length: Math.max(0, namespaces - this.#namespaces) }, (_, i) => this.#namespaces + i);
    await inParallel(newNamespaces, CREATE_CONCURRENCY, async (index) => {
      await this.#api.json('POST', '/api/v1/namespaces', { metadata: { name: `team-${index}`, labels: { monitored: 'true' } } });
    });
    this.#namespaces = Math.max(this.#namespaces, namespaces);
    const newMonitors = Array.from({ length: Math.max(0, count - this.#monitors) }, (_, i) => this.#monitors + i);
    await inParallel(newMonitors, CREATE_CONCURRENCY, async (index) => {
      await this.#api.json('POST', monitorsPath(teamNamespace(index)), {
        apiVersion: GROUP_VERSION,
        kind: 'ServiceMonitor',
        metadata: { name: monitorName(index), labels: { release: 'bench' } },
        spec: { selector: { matchLabels: { app: 'bench' } }, endpoints: monitorEndpoints('initial') },
      });
    });
    this.#monitors = Math.max(this.#monitors, count);
  }

  /** Sets the marker of monitor `index` (a JSON merge patch replaces the endpoints list whole). */
  async changeMonitor(index: number, marker: string): Promise<void> {
    await this.#patchMonitor(teamNamespace(index), monitorName(index), marker);
  }

  /** Sets the marker of the other team's monitor `index`. */
  async changeOtherMonitor(index: number, marker: string): Promise<void> {
    await this.#patchMonitor(OTHERS, `other-${index}`, marker);
  }

  async #patchMonitor(namespace: string, name: string, marker: string): Promise<void> {
    await this.#api.json('PATCH', `${monitorsPath(namespace)}/${name}`, { spec: { endpoints: monitorEndpoints(marker) } }, { contentType: 'application/merge-patch+json' });
  }

  /** The other team: namespace `others`, `count` monitors in it and Prometheus `others` selecting them alone. */
  async createOthers(count: number): Promise<void> {
    await this.#api.json('POST', '/api/v1/namespaces', { metadata: { name: OTHERS, labels: { team: OTHERS } } });
    await inParallel(Array.from({ length: count }, (_, i) => i), CREATE_CONCURRENCY, async (index) => {
      await this.#api.json('POST', monitorsPath(OTHERS), {
        apiVersion: GROUP_VERSION,
        kind: 'ServiceMonitor',
        metadata: { name: `other-${index}`, labels: { release: OTHERS } },
        spec: { selector: { matchLabels: { app: OTHERS } }, endpoints: monitorEndpoints('initial') },
      });
    });
    await this.createPrometheus(OTHERS, { release: OTHERS }, { team: OTHERS });
  }

  /**
   * A Prometheus selecting every benchmark monitor (unless told otherwise). No kubelet runs, so its pods never
   * start (for both operators).
   */
  async createPrometheus(name: string, monitorLabels: Record<string, string> = { release: 'bench' }, namespaceLabels: Record<string, string> = { monitored: 'true' }): Promise<void> {
    await this.#api.json('POST', prometheusesPath, {
      apiVersion: GROUP_VERSION,
      kind: 'Prometheus',
      metadata: { name },
      spec: {
        replicas: 1,
        serviceMonitorSelector: { matchLabels: monitorLabels },
        serviceMonitorNamespaceSelector: { matchLabels: namespaceLabels },
      },
    });
  }

  /** Deletes a Prometheus; returns its uid, for deleteChildrenOf. */
  async deletePrometheus(name: string): Promise<string> {
    const prometheus = await this.#api.json<{ metadata: { uid: string } }>('GET', `${prometheusesPath}/${name}`);
    await this.#api.json('DELETE', `${prometheusesPath}/${name}`);
    return prometheus.metadata.uid;
  }

  /**
   * Deletes what the Prometheus of `uid` owns in its namespace. No garbage collector runs here (no
   * kube-controller-manager, which would cost CPU both operators share), so the benchmark removes the children.
   */
  async deleteChildrenOf(uid: string): Promise<void> {
    for (const kind of ['/api/v1/namespaces/monitoring/secrets', '/api/v1/namespaces/monitoring/configmaps', '/api/v1/namespaces/monitoring/services', '/apis/apps/v1/namespaces/monitoring/statefulsets']) {
      const list = await this.#api.json<{ items: { metadata: { name: string; ownerReferences?: { uid: string }[] } }[] }>('GET', kind);
      const owned = list.items.filter((item) => item.metadata.ownerReferences?.some((owner) => owner.uid === uid));
      await inParallel(owned, CREATE_CONCURRENCY, async (item) => {
        await this.#api.json('DELETE', `${kind}/${item.metadata.name}`, undefined, { accepted: [200, 202, 404] });
      });
    }
  }

  /** `count` Secrets of `kib` KiB each that nothing references. */
  async createBulkSecrets(count: number, kib: number): Promise<void> {
    const value = Buffer.alloc(kib * 1024, 'x').toString('base64');
    await inParallel(Array.from({ length: count }, (_, i) => i), 16, async (index) => {
      await this.#api.json('POST', `/api/v1/namespaces/${BULK_SECRETS_NAMESPACE}/secrets`, { metadata: { name: `bulk-${index}` }, type: 'Opaque', data: { blob: value } });
    });
  }
}
